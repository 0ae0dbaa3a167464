"""What the desk's and the referee's pages share: run one write, say what happened, go back."""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render

from core.errors import ActionRefused
from core.forms import NextForm


def back(request, fallback):
    """Back to the page the form came from (its `next`, a path on this site), or `fallback`."""
    return redirect(NextForm(request.POST).target() or fallback)


def first_error(form) -> str:
    """The form's first error, led by its field's label (a page that redirects back shows one
    line, so it must say which field it means)."""
    for name, errors in form.errors.items():
        field = form.fields.get(name)
        return f"{field.label}: {errors[0]}" if field is not None and field.label else errors[0]
    return ""


def error_messages(request, form) -> None:
    """Every error of an invalid form as a message, one line a field led by its label, for a
    page that redirects back to where the form was."""
    for name, errors in form.errors.items():
        field = form.fields.get(name)
        text = " ".join(errors)
        messages.error(
            request, f"{field.label}: {text}" if field is not None and field.label else text
        )


def show_refusal(form, refusal) -> None:
    """A service's refusal on the form it came from: under the field it names when the form has
    that field (a form may prefix its names, `form.refusal_field(name)`), else above the form."""
    field = getattr(form, "refusal_field", lambda name: name)(refusal.field)
    form.add_error(field if field in form.fields else None, refusal.message)


def refuse(request, form, fallback):
    """An invalid form on a page that redirects back: its first error, then back."""
    messages.error(request, first_error(form))
    return back(request, fallback)


def chosen(form, name):
    """The record a hidden field names. A missing or foreign one is not found (404), as a
    tampered address would be; the page itself always sends a valid one."""
    if not form.is_valid() and name in form.errors:
        raise Http404
    return form.cleaned_data[name]


def act(request, fallback, action, done, level=messages.success):
    """Run one write; say what it did (`done(result)`) or why it was refused; go back."""
    try:
        result = action()
    except ActionRefused as e:
        messages.error(request, e.message)
    else:
        level(request, done(result))
    return back(request, fallback)


def ask_first(request, question: str, fields, back_to: str, **context):
    """The step between a tap and a write that cannot be taken back by the one who tapped
    alone: a page that says what will be saved (`question`, its button) and posts the same
    fields again with confirm=1, or goes back (`back_to`). Works without a script."""
    hidden = [(name, request.POST[name]) for name in fields if request.POST.get(name)]
    return render(
        request,
        "confirm.html",
        {
            "question": question,
            "hidden": hidden,
            "action": request.path,
            "back": NextForm(request.POST).target() or back_to,
            **context,
        },
    )
