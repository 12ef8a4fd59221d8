#!/usr/bin/env python3
"""Print every (group, option) Ironic declares in ironic/conf/*.py.

The output is the list that
ironic_like/tests/unit/conf/test_ironic_option_groups.py compares our
option groups with, so that an operator's ironic.conf carries over::

    tools/ironic_option_names.py /path/to/ironic \\
        > ironic_like/tests/unit/conf/ironic_options.txt

The path is an Ironic checkout (a work tree), or a bare git directory with
``--rev`` (default HEAD) to read the files from that commit.

Ironic's modules are read with ``ast``, not imported: importing them needs
Ironic and all its dependencies installed. Each module's register_opts()
says which list of options goes to which group (a string, an OptGroup
variable, or its own ``group`` argument's default); ironic/conf/__init__.py
adds the extra registrations done from there (json_rpc's options under a
second group). The keystoneauth options that Ironic adds to some groups
([cinder], [glance], [json_rpc], ...) are keystoneauth's, not declared in
ironic/conf: they are not listed.
"""

import argparse
import ast
import os
import subprocess
import sys


def _read_tree(path, rev):
    """{module name: source} of ironic/conf, and the commit read."""
    if os.path.isdir(os.path.join(path, 'ironic', 'conf')):
        conf_dir = os.path.join(path, 'ironic', 'conf')
        sources = {}
        for name in sorted(os.listdir(conf_dir)):
            if name.endswith('.py'):
                with open(os.path.join(conf_dir, name)) as f:
                    sources[name[:-3]] = f.read()
        commit = _git(path, 'rev-parse', 'HEAD', check=False)
        return sources, commit

    def git(*args):
        return _git(path, *args)

    commit = git('rev-parse', rev)
    names = git('ls-tree', '--name-only', commit, 'ironic/conf/').split()
    sources = {}
    for name in names:
        if name.endswith('.py'):
            module = os.path.basename(name)[:-3]
            sources[module] = git('show', '%s:%s' % (commit, name))
    return sources, commit


def _git(path, *args, check=True):
    result = subprocess.run(['git', '-C', path] + list(args),
                            capture_output=True, text=True)
    if result.returncode:
        if check:
            sys.exit(result.stderr.strip())
        return None
    return result.stdout.strip() if args[0] == 'rev-parse' else result.stdout


def _call_name(node):
    """'StrOpt' for cfg.StrOpt(...) or StrOpt(...), else None."""
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


def _opt_name(node):
    """The name of a cfg.*Opt(...) call, else None."""
    kind = _call_name(node)
    if not kind or not kind.endswith('Opt') or kind == 'OptGroup':
        return None
    if node.args and isinstance(node.args[0], ast.Constant):
        return node.args[0].value
    for keyword in node.keywords:
        if keyword.arg == 'name' and isinstance(keyword.value, ast.Constant):
            return keyword.value.value
    return None


def _group_name(node):
    """The name of a cfg.OptGroup(...) call, else None."""
    if _call_name(node) != 'OptGroup':
        return None
    if node.args and isinstance(node.args[0], ast.Constant):
        return node.args[0].value
    for keyword in node.keywords:
        if keyword.arg == 'name' and isinstance(keyword.value, ast.Constant):
            return keyword.value.value
    return None


def _option_names(node, variables):
    """Names of the options of a list expression: a list literal (items
    being option calls or variables holding one), a variable holding one,
    or a sum of those."""
    if isinstance(node, ast.Name):
        value = variables.get(node.id)
        return _option_names(value, variables) if value is not None else []
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return (_option_names(node.left, variables)
                + _option_names(node.right, variables))
    if isinstance(node, (ast.List, ast.Tuple)):
        names = []
        for item in node.elts:
            name = _opt_name(item)
            if name is None and isinstance(item, ast.Name):
                name = _opt_name(variables.get(item.id))
            if name is not None:
                names.append(name)
        return names
    return []


def _module(source):
    """Module-level assignments {name: value node} and the register_opts
    function of a module."""
    tree = ast.parse(source)
    variables = {}
    register = None
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    variables[target.id] = stmt.value
        elif (isinstance(stmt, ast.FunctionDef)
              and stmt.name == 'register_opts'):
            register = stmt
    return variables, register


def _resolve_group(node, variables, local_groups, defaults):
    if node is None:
        return 'DEFAULT'
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if node.id in local_groups:
            return local_groups[node.id]
        if node.id in defaults:
            return defaults[node.id]
        group = _group_name(variables.get(node.id))
        if group is not None:
            return group
    if isinstance(node, ast.Attribute) and node.attr == 'name':
        group = _group_name(variables.get(getattr(node.value, 'id', None)))
        if group is not None:
            return group
    raise ValueError('cannot resolve the group of %s' % ast.dump(node))


def _registrations(register, variables, group_args=None):
    """(group, option names) of each conf.register_opt(s) call of a
    register_opts function; group_args overrides its `group` argument."""
    defaults = {}
    args = register.args
    for arg, default in zip(args.args[-len(args.defaults):] if args.defaults
                            else [], args.defaults):
        if isinstance(default, ast.Constant):
            defaults[arg.arg] = default.value
    defaults.update(group_args or {})
    local_groups = {}
    result = []
    for stmt in ast.walk(register):
        if isinstance(stmt, ast.Assign):
            group = _group_name(stmt.value)
            if group is not None:
                for target in stmt.targets:
                    if isinstance(target, ast.Name):
                        local_groups[target.id] = group
    for node in ast.walk(register):
        kind = _call_name(node)
        if kind not in ('register_opts', 'register_opt'):
            continue
        if not isinstance(node.func, ast.Attribute):
            continue
        group_node = node.args[1] if len(node.args) > 1 else None
        for keyword in node.keywords:
            if keyword.arg == 'group':
                group_node = keyword.value
        group = _resolve_group(group_node, variables, local_groups, defaults)
        if kind == 'register_opt':
            name = _opt_name(node.args[0]) or _opt_name(
                variables.get(getattr(node.args[0], 'id', None)))
            names = [name] if name else []
        else:
            names = _option_names(node.args[0], variables)
        result.append((group, names))
    return result


def _extra_registrations(init_source):
    """Calls such as json_rpc.register_opts(CONF, group='x') in
    ironic/conf/__init__.py: [(module, group)] of those naming a group."""
    extra = []
    for node in ast.walk(ast.parse(init_source)):
        if (_call_name(node) == 'register_opts'
                and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)):
            for keyword in node.keywords:
                if (keyword.arg == 'group'
                        and isinstance(keyword.value, ast.Constant)):
                    extra.append((node.func.value.id, keyword.value.value))
    return extra


def extract(sources):
    """Sorted 'group.option' strings of ironic/conf's modules."""
    options = set()
    modules = {}
    for module, source in sources.items():
        if module in ('__init__', 'opts'):
            continue
        variables, register = _module(source)
        if register is None:
            continue
        modules[module] = (variables, register)
        for group, names in _registrations(register, variables):
            options.update('%s.%s' % (group, name) for name in names)
    for module, group in _extra_registrations(sources.get('__init__', '')):
        variables, register = modules[module]
        for _default_group, names in _registrations(
                register, variables, group_args={'group': group}):
            options.update('%s.%s' % (group, name) for name in names)
    return sorted(options)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('ironic', help='Ironic checkout or git directory')
    parser.add_argument('--rev', default='HEAD',
                        help='commit to read from a git directory')
    args = parser.parse_args()
    sources, commit = _read_tree(args.ironic, args.rev)
    print('# Option names (group.option) extracted from ironic/conf/*.py')
    print('# of OpenStack Ironic (https://opendev.org/openstack/ironic, '
          'mirrored at')
    print('# https://github.com/openstack/ironic) at commit %s'
          % (commit or 'unknown'))
    print('# by tools/ironic_option_names.py. Regenerate with:')
    print('#   tools/ironic_option_names.py <ironic checkout> > '
          'ironic_like/tests/unit/conf/ironic_options.txt')
    for line in extract(sources):
        print(line)


if __name__ == '__main__':
    main()
