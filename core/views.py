"""What the desk's and the referee's pages share: run one write, say what happened, go back."""

from django.contrib import messages
from django.shortcuts import redirect

from core.errors import ActionRefused


def back(request, fallback):
    target = request.POST.get("next", "")
    return redirect(target if target.startswith("/") and not target.startswith("//") else fallback)


def act(request, fallback, action, done, level=messages.success):
    """Run one write; say what it did (`done(result)`) or why it was refused; go back."""
    try:
        result = action()
    except ActionRefused as e:
        messages.error(request, e.message)
    else:
        level(request, done(result))
    return back(request, fallback)
