"""The variants unobot ships, as YAML files beside this one.

Installed, this folder is the package `unobot.variant_files`; the file exists
only so that the YAML travels inside the wheel and is found with the package
(`core/variants.py` reads the folder this module sits in).
"""
