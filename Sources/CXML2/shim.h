// Umbrella header: what Swift sees of this C library.
// Debian's libxml2 is built with ICU, and its encoding.h then includes ICU's headers, whose UErrorCode clashes with
// the copy inside Foundation (_FoundationICU) in any Swift module that imports both. Swift never touches the
// ICU-only members of xmlCharEncodingHandler (it only walks documents and nodes), so the ICU part is left out here.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
