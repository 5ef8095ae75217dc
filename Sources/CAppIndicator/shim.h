// Umbrella header: what Swift sees of libayatana-appindicator3 (the StatusNotifierItem tray icon).
#include <libayatana-appindicator/app-indicator.h>
