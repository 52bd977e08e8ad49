"""Provider codecs: pure translation between provider-neutral values and wire formats."""
