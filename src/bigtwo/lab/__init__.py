"""The lab: research pipelines and studies, the top layer; nothing in the product imports it."""
