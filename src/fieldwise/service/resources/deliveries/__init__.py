"""Webhook deliveries: the sends of events to endpoints and ``webhook_url``s, as a resource."""
