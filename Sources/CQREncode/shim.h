// Umbrella header: what Swift sees of libqrencode (QR code symbols for the share menu).
#include <qrencode.h>
