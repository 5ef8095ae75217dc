// CShim.XML: what Faro's HTML reader asks of libxml2, which is opened on first use (xml_loader.c) rather than
// linked. Documents and nodes are opaque here: the loader reads their fields, so this header needs no libxml2
// header and the Swift modules that import it see nothing of libxml2 (nor of the ICU its headers include).
#ifndef FARO_SHIM_XML_H
#define FARO_SHIM_XML_H

typedef struct faro_xml_document faro_xml_document;
typedef struct faro_xml_node faro_xml_node;
typedef struct faro_xml_attribute faro_xml_attribute;

/// What a node is, as the reader sees it (CDATA counts as text; comments, processing instructions… as other).
typedef enum { FARO_XML_OTHER = 0, FARO_XML_ELEMENT = 1, FARO_XML_TEXT = 2 } faro_xml_kind;

/// The messages libxml2 gave during one parse: how many, and the first one on one line.
typedef struct {
    int count;
    char first[256];
} faro_xml_messages;

/// libxml2's htmlReadMemory with the reader's options: recover from broken markup, print no error or warning, never
/// touch the network, compact small text nodes. `encoding` NULL lets libxml2 detect it; "UTF-8" also makes it ignore
/// the page's own <meta charset> (the caller decoded the page). libxml2's messages during the parse are counted
/// into `messages` (may be NULL), never printed. NULL when libxml2 finds no document, or could not be loaded
/// (faro_xml_load_error says why). Free the document with faro_xml_free_document.
faro_xml_document *faro_html_read_memory(const char *bytes, int count, const char *url, const char *encoding,
                                         faro_xml_messages *messages);
void faro_xml_free_document(faro_xml_document *document);
/// The document's root element, or NULL.
faro_xml_node *faro_xml_root(faro_xml_document *document);

faro_xml_kind faro_xml_node_kind(const faro_xml_node *node);
/// The element's name (UTF-8), or NULL.
const char *faro_xml_node_name(const faro_xml_node *node);
/// A text node's content (UTF-8), or NULL.
const char *faro_xml_node_content(const faro_xml_node *node);
faro_xml_node *faro_xml_node_children(const faro_xml_node *node);
faro_xml_node *faro_xml_node_next(const faro_xml_node *node);
faro_xml_attribute *faro_xml_node_attributes(const faro_xml_node *node);

const char *faro_xml_attribute_name(const faro_xml_attribute *attribute);
/// The text nodes holding the attribute's value.
faro_xml_node *faro_xml_attribute_children(const faro_xml_attribute *attribute);
faro_xml_attribute *faro_xml_attribute_next(const faro_xml_attribute *attribute);

/// Why libxml2 cannot be loaded (it is opened now if it was not yet), or NULL when it is.
const char *faro_xml_load_error(void);

#endif
