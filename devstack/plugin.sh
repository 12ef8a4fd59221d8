#!/bin/bash
#
# devstack plugin of ironic_like. In local.conf:
#
#     enable_plugin ironic_like <git URL of ironic_like> [branch]
#
# devstack sources this file with the mode and phase as arguments
# ("stack install", "stack post-config", "stack extra", "unstack",
# "clean", ...), after it sourced settings.

# Save trace setting
_XTRACE_IRONIC_LIKE_PLUGIN=$(set +o | grep xtrace)
set +o xtrace

source "$(dirname "${BASH_SOURCE[0]}")/lib/ironic_like"

if is_service_enabled ir-like-api ir-like-cond; then
    if [[ "$1" == "stack" && "$2" == "install" ]]; then
        echo_summary "Installing ironic_like"
        install_ironic_like
    elif [[ "$1" == "stack" && "$2" == "post-config" ]]; then
        echo_summary "Configuring ironic_like"
        configure_ironic_like
        if is_service_enabled keystone; then
            create_ironic_like_accounts
        fi
        init_ironic_like
    elif [[ "$1" == "stack" && "$2" == "extra" ]]; then
        echo_summary "Starting ironic_like"
        start_ironic_like
    fi

    if [[ "$1" == "unstack" ]]; then
        stop_ironic_like
    fi

    if [[ "$1" == "clean" ]]; then
        cleanup_ironic_like
    fi
fi

# Restore xtrace
$_XTRACE_IRONIC_LIKE_PLUGIN
