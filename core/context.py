from core.roles import is_club_officer, is_desk, is_director, is_head_referee, is_referee


def roles(request):
    user = getattr(request, "user", None)
    if user is None:
        return {}
    return {
        "is_director": is_director(user),
        "is_desk": is_desk(user),
        "is_referee": is_referee(user),
        "is_head_referee": is_head_referee(user),
        "is_club_officer": is_club_officer(user),
    }
