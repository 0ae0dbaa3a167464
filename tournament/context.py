from .roles import is_desk, is_director


def roles(request):
    user = getattr(request, "user", None)
    if user is None:
        return {}
    return {"is_director": is_director(user), "is_desk": is_desk(user)}
