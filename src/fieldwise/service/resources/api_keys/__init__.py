"""API keys as a resource: named, scoped (admin / write / read), revocable, stored hashed."""
