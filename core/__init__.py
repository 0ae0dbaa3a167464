"""What every room shares and no room owns: refusals, roles, numbers, forms, view and table
helpers, the set-up commands. Imports only Django, never a room."""
