"""The studio's JSON API, one router per resource."""
