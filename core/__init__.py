"""What every app shares and no app owns: refusals and number helpers. Imports only Django."""
