"""What every club write checks first: a row against its model's own declarations."""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

from core.errors import ActionRefused


def checked(instance, exclude=None):
    """Validate with the model's own declarations; the first problem names its field."""
    try:
        instance.full_clean(exclude=exclude)
    except ValidationError as e:
        field, errors = next(iter(e.message_dict.items()))
        label = field
        if field != "__all__":
            label = str(instance._meta.get_field(field).verbose_name)
        raise ActionRefused(
            _("%(field)s: %(problem)s") % {"field": label.capitalize(), "problem": errors[0]},
            field=field,
        ) from e
