"""Play in the browser: the web server (extra ``[web]``).

``kingmaker serve`` (``kingmaker.web.cli.serve``) runs ``kingmaker.web.app.create_app``
under uvicorn. Importing this package imports nothing from the extra; ``app``,
``hub`` and ``storage`` do.
"""
