"""Webhook endpoints (with their signing secrets and test sends) and the workspace secret."""
