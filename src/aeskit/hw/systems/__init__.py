"""The renderers of the system tops around a registry core (the registry's systems,
:mod:`aeskit.hw.catalog.systems`, reach them by import): each writes its top from the
manifest's template for one core and returns every source in compile order."""
