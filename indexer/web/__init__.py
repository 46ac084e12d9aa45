"""The web interface of ``indexer serve``: server-rendered search pages over the ``/search``
handler (aiohttp.web, Jinja2 templates and one stylesheet as package data; no JavaScript
needed, no front-end build step)."""
