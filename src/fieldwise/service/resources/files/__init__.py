"""Files: uploads into the blob store, listing, content, deletion."""
