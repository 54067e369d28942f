#!/bin/sh
# Managed by CCM (scaffold of templates/app); local changes are overwritten.
{* SPDX-License-Identifier: Apache-2.0. The binary path follows the app name in the scaffold's data. *}exec /opt/[[ Data.app_name ]]/bin/[[ Data.app_name ]] --config /etc/myapp/myapp.conf --port [[ Data.port ]]
