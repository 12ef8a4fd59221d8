"""Boot sessions on the conductor side: node selection, component writes,
the boot-artifacts store, power requests (operators: ../operators/)."""
