"""The corpus of the @Inquire quality bench: long real manuals from Debian packages, and questions.

``documents`` fetches and describes the documents; ``questions`` holds the tuning set and
``held_out`` the questions kept apart while tuning (reported separately).
"""
