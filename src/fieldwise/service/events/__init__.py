"""What happened, and telling others: the event outbox and webhook delivery."""
