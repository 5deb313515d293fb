// ak_multi_instance_inst.sv.tpl: one instance of ak_multi_instance.sv.tpl's top (a
// fragment, not a module). Values:
//   module        the wrapped module
//   params        its parameter overrides, " #(.DataWidth(32), ...)", or "" for none
//   inst          instance name suffix (the port prefix without its trailing "_")
//   connections   the port connections, ",\n    " between them
// This header (up to the first empty line) is not rendered.

  ${module}${params} u_${inst} (
    ${connections}
  );
