"""Citations a reader can check: verbatim quotes of the chunks cited, markers numbered in order, and
drafted statements tied to the passages that support them."""
