// libxml2, loaded on first use instead of at launch.
//
// Debian's libxml2 links ICU (libicuuc, libicudata) and liblzma: linked normally, every launch of the window mapped
// and relocated them (about 1 MB resident) for pages that are read later, if at all. Faro therefore does not link
// libxml2: the first document read opens libxml2.so.2 (once, thread-safe) and finds the four functions the reader
// calls with dlsym. When it cannot be opened, no document is read and faro_xml_load_error names the reason.
//
// libxml2 prints some messages (encoding errors among them) through its generic error function, whatever the parse
// options say: each parse installs, for its own thread, handlers that count them and keep the first one for the
// caller, so that nothing of libxml2's reaches the terminal raw.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

// The reader touches nothing of ICU; without this, encoding.h would need ICU's headers.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#include "faro_xml.h"

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[512];
static int loaded;
static __typeof__(&htmlReadMemory) read_memory;
static __typeof__(&xmlFreeDoc) free_document;
static __typeof__(&xmlDocGetRootElement) root_element;
static __typeof__(&xmlSetGenericErrorFunc) set_generic_error;
static __typeof__(&xmlSetStructuredErrorFunc) set_structured_error;

static void load_library(void) {
    void *library = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(load_error, sizeof load_error, "libxml2 could not be loaded: %s", dlerror());
        return;
    }
    __typeof__(&xmlInitParser) init_parser = (__typeof__(&xmlInitParser))dlsym(library, "xmlInitParser");
    read_memory = (__typeof__(&htmlReadMemory))dlsym(library, "htmlReadMemory");
    free_document = (__typeof__(&xmlFreeDoc))dlsym(library, "xmlFreeDoc");
    root_element = (__typeof__(&xmlDocGetRootElement))dlsym(library, "xmlDocGetRootElement");
    set_generic_error = (__typeof__(&xmlSetGenericErrorFunc))dlsym(library, "xmlSetGenericErrorFunc");
    set_structured_error = (__typeof__(&xmlSetStructuredErrorFunc))dlsym(library, "xmlSetStructuredErrorFunc");
    if (init_parser == NULL || read_memory == NULL || free_document == NULL || root_element == NULL
        || set_generic_error == NULL || set_structured_error == NULL) {
        snprintf(load_error, sizeof load_error,
                 "libxml2.so.2 lacks htmlReadMemory, xmlFreeDoc, xmlInitParser or its error handler setters");
        return;
    }
    init_parser();
    loaded = 1;
}

static int ensure_loaded(void) {
    pthread_once(&load_once, load_library);
    return loaded;
}

static void keep_message(faro_xml_messages *messages, const char *text) {
    if (messages == NULL) return;
    messages->count += 1;
    if (messages->first[0] != 0 || text == NULL) return;
    snprintf(messages->first, sizeof messages->first, "%s", text);
    // One line: libxml2 ends its messages with a newline.
    for (char *c = messages->first; *c != 0; c++)
        if (*c == '\n' || *c == '\r') *c = ' ';
}

static void on_generic_error(void *context, const char *format, ...) {
    faro_xml_messages *messages = context;
    if (messages == NULL || messages->first[0] != 0) {
        if (messages != NULL) messages->count += 1;
        return;
    }
    char text[sizeof messages->first];
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(text, sizeof text, format, arguments);
    va_end(arguments);
    keep_message(messages, text);
}

static void on_structured_error(void *context, xmlErrorPtr error) {
    keep_message(context, error != NULL ? error->message : NULL);
}

faro_xml_document *faro_html_read_memory(const char *bytes, int count, const char *url, const char *encoding,
                                         faro_xml_messages *messages) {
    if (!ensure_loaded()) return NULL;
    if (messages != NULL) memset(messages, 0, sizeof *messages);
    // Per thread in libxml2: this parse's messages go to `messages`; after it, the handlers stay (with no context)
    // so that nothing later on this thread prints either.
    set_generic_error(messages, on_generic_error);
    set_structured_error(messages, on_structured_error);
    int options = HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET
                  | HTML_PARSE_COMPACT;
    // The caller has decoded the page to UTF-8 itself: a <meta charset> must not switch the decoder again.
    if (encoding != NULL && strcmp(encoding, "UTF-8") == 0) options |= HTML_PARSE_IGNORE_ENC;
    faro_xml_document *document = (faro_xml_document *)read_memory(bytes, count, url, encoding, options);
    set_generic_error(NULL, on_generic_error);
    set_structured_error(NULL, on_structured_error);
    return document;
}

void faro_xml_free_document(faro_xml_document *document) {
    if (document != NULL && ensure_loaded()) free_document((xmlDocPtr)document);
}

faro_xml_node *faro_xml_root(faro_xml_document *document) {
    if (document == NULL || !ensure_loaded()) return NULL;
    return (faro_xml_node *)root_element((xmlDocPtr)document);
}

faro_xml_kind faro_xml_node_kind(const faro_xml_node *node) {
    switch (((const xmlNode *)node)->type) {
    case XML_ELEMENT_NODE: return FARO_XML_ELEMENT;
    case XML_TEXT_NODE:
    case XML_CDATA_SECTION_NODE: return FARO_XML_TEXT;
    default: return FARO_XML_OTHER;
    }
}

const char *faro_xml_node_name(const faro_xml_node *node) { return (const char *)((const xmlNode *)node)->name; }

const char *faro_xml_node_content(const faro_xml_node *node) {
    return (const char *)((const xmlNode *)node)->content;
}

faro_xml_node *faro_xml_node_children(const faro_xml_node *node) {
    return (faro_xml_node *)((const xmlNode *)node)->children;
}

faro_xml_node *faro_xml_node_next(const faro_xml_node *node) { return (faro_xml_node *)((const xmlNode *)node)->next; }

faro_xml_attribute *faro_xml_node_attributes(const faro_xml_node *node) {
    return (faro_xml_attribute *)((const xmlNode *)node)->properties;
}

const char *faro_xml_attribute_name(const faro_xml_attribute *attribute) {
    return (const char *)((const xmlAttr *)attribute)->name;
}

faro_xml_node *faro_xml_attribute_children(const faro_xml_attribute *attribute) {
    return (faro_xml_node *)((const xmlAttr *)attribute)->children;
}

faro_xml_attribute *faro_xml_attribute_next(const faro_xml_attribute *attribute) {
    return (faro_xml_attribute *)((const xmlAttr *)attribute)->next;
}

const char *faro_xml_load_error(void) { return ensure_loaded() ? NULL : load_error; }
