"""What a BIOS registry says of a setting (Ironic API 1.74): the BIOS
interfaces read these fields, the database keeps them, the API shows
them."""

FIELDS = ('attribute_type', 'allowable_values', 'lower_bound',
          'max_length', 'min_length', 'read_only', 'reset_required',
          'unique', 'upper_bound')
