"""How resources look in the API: which fields exist from which
microversion, and how each is read off a database row."""
