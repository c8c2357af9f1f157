"""Webhook endpoints, deliveries, the workspace secret and dead-letter notifications."""
