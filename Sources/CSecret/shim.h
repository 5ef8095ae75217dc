// What FaroSettings sees: GSettings with its backend API (tests pick the keyfile or memory backend) and libsecret.
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gio.h>
#include <gio/gsettingsbackend.h>
#include <libsecret/secret.h>
