"""Real models: which one a setting names, how a call to it is bounded, and what its errors mean.

Not part of the agent a student reads: the plumbing between the loops and a provider.
``providers`` (real models behind ``model(prompt, stop)``), ``model_settings``
(``REACT_COURSE_MODEL`` read into a setting, and the numbers that bound a call),
``clients`` (the ``openai`` client of a native run or lesson, with the lesson's fallback),
``api_errors`` (a failed call in words, the key kept out of sight), ``protocols``
(which OpenAI protocol a model requires) and ``conversation`` (the next Responses
request, with state on the server or carried by the client).
"""
