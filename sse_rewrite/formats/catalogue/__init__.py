"""The catalogue: every leaked syntax as a declaration on a machine of `..machines`, and
the routing from model ids to syntaxes (`routing`).

A declaration names its markers and their spellings, the machine that reads it, how a
header gives name and id, and how values are typed; it holds no parsing code of its own.
"""
