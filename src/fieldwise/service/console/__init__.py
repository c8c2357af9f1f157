"""The web console (the spec's ``{console_url}``): server-rendered pages under ``/console``.

Sign in with an admin API key; then manage API keys (``/console/settings/api-keys``) and webhook
endpoints with their deliveries (``/console/settings/webhooks``), and look over processors,
runs and evaluations. Pages call resources' operations (``ops``), never their routes.
``routes.install_console`` mounts it all; ``sessions`` holds the session table.
"""
