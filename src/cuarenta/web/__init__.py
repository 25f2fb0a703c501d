"""The web app's page: static HTML, JavaScript, CSS and SVG in ``static/`` (served at ``/``).

No build step: the files are served as they are. See docs/web.md for how the page is organised.
"""
