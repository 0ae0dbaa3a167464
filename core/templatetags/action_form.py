"""One scaffold for the small one-button forms of the referee's and the desk's pages.

    {% action_form url button=_("Late arrival") player=player.pk kind="late" next=here %}
      <label>… the visible fields …</label>
    {% endaction_form %}

renders templates/_action_form.html: the form tag, the CSRF token, every other keyword as a
hidden field (in the order given), the visible fields, and the submit button when `button`
is given, `detail` in brackets after its label. A form whose buttons carry values (the
misconduct amounts) puts its own buttons among the visible fields.
"""

from django import template
from django.template.loader import render_to_string

register = template.Library()


@register.simple_block_tag(takes_context=True)
def action_form(
    context,
    content,
    url,
    *,
    button="",
    button_class="",
    button_id="",
    detail=None,
    css="inline",
    form_id="",
    **hidden,
):
    return render_to_string(
        "_action_form.html",
        {
            "url": url,
            "css": css,
            "form_id": form_id,
            # str(), not the template's localisation: a pk of 1234 must not become "1,234".
            "hidden": [(name, str(value)) for name, value in hidden.items() if value is not None],
            "fields": content,
            "button": button,
            "button_class": button_class,
            "button_id": button_id,
            "detail": detail,
            "csrf_token": context.get("csrf_token"),
        },
    )
