/* GIF's LZW compression of a palette picture's pixels, for the replay's frames.

Why our own: a replay frame is mostly one colour (the "unchanged" index over the rectangle of
change), and Pillow's GIF encoder looks each pixel up in its string table, one lookup waiting on
the one before, which made its LZW most of a replay frame's cost. A run of one colour is where
that time goes, and its strings are known: in LZW, the strings made of one colour c are c, cc,
ccc, ... made in that order, so for each colour we keep the code of each length. A run is then
measured a word at a time and matched to its longest string in one step, and only the pixels
where the colours change are looked up. The output is exactly plain LZW's (greedy, longest
match): codes of 9 to 12 bits, a clear code when the 4096 codes are used up, packed least
significant bit first, in sub-blocks of at most 255 bytes.

The format is GIF89a's (www.w3.org/Graphics/GIF/spec-gif89a.txt, appendix F). */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_CODES 4096
#define ROOT_BITS 8 /* a 256-colour table: every pixel is a root code */
#define CLEAR_CODE (1 << ROOT_BITS)
#define END_CODE (CLEAR_CODE + 1)
#define FIRST_FREE (CLEAR_CODE + 2)

/* next[code * 256 + pixel]: the code of string `code` followed by `pixel`, 0 when not yet made
   (no string's code is 0 but the root's own, which is never a longer string's). run[c][k]: the
   code of c repeated k times, for k up to longest[c]. One table per thread, kept between calls;
   the entries a stream made are listed so a clear undoes only them. */
typedef struct {
    uint16_t next[MAX_CODES * 256];
    uint32_t made[MAX_CODES];
    int count;
    uint16_t run[256][MAX_CODES];
    uint16_t longest[256];
} Table;

static _Thread_local Table *table;

typedef struct {
    uint8_t *out;   /* sub-blocks: a length byte, then up to 255 bytes of codes */
    size_t size;    /* bytes written, the open block's included */
    size_t block;   /* where the open block's length byte is */
    uint32_t bits;  /* codes not yet written, least significant first */
    int held;       /* how many of those bits there are */
} Writer;

static void put_byte(Writer *w, uint8_t byte) {
    if (w->size - w->block == 256) { /* the open block is full: start the next */
        w->out[w->block] = 255;
        w->block = w->size++;
    }
    w->out[w->size++] = byte;
}

static void put_code(Writer *w, uint32_t code, int width) {
    w->bits |= code << w->held;
    w->held += width;
    while (w->held >= 8) {
        put_byte(w, (uint8_t)w->bits);
        w->bits >>= 8;
        w->held -= 8;
    }
}

static void clear_table(Table *t) {
    for (int i = 0; i < t->count; i++) {
        t->next[t->made[i]] = 0;
    }
    t->count = 0;
    for (int c = 0; c < 256; c++) {
        t->run[c][1] = (uint16_t)c;
        t->longest[c] = 1;
    }
}

/* How many pixels from `at` on are `colour`, up to pixel `n`, eight at a time while they can be. */
static size_t run_length(const uint8_t *pixels, size_t at, size_t n, uint8_t colour) {
    uint64_t all = 0x0101010101010101ull * colour;
    size_t i = at;
    while (i + 8 <= n) {
        uint64_t word;
        memcpy(&word, pixels + i, 8);
        if (word != all) {
            break;
        }
        i += 8;
    }
    while (i < n && pixels[i] == colour) {
        i++;
    }
    return i - at;
}

/* The stream for `n` pixels into `out` (room for worst_case(n) bytes); returns its length. */
static size_t compress(const uint8_t *pixels, size_t n, uint8_t *out) {
    Table *t = table;
    Writer w = {out, 1, 0, 0, 0};
    int width = ROOT_BITS + 1;
    uint32_t free_code = FIRST_FREE;
    clear_table(t);
    put_code(&w, CLEAR_CODE, width);
    uint32_t prefix = pixels[0];
    uint8_t colour = pixels[0];
    size_t same = 1; /* the prefix is `colour` repeated this many times (0: it is not a run) */
    size_t i = 1;
    while (i < n) {
        uint8_t pixel = pixels[i];
        if (same && pixel == colour) {
            /* The run goes on: to its end if a string that long exists, else to the longest
               (the run is measured only as far as one pixel past the longest string). */
            size_t have = t->longest[colour];
            size_t end = i + have - same + 1 < n ? i + have - same + 1 : n;
            size_t want = same + run_length(pixels, i, end, colour);
            size_t reach = want < have ? want : have;
            prefix = t->run[colour][reach];
            i += reach - same;
            same = reach;
            if (reach == want) {
                continue; /* the pixels ended, or a different colour comes next */
            }
        }
        uint32_t slot = prefix * 256 + pixel;
        uint16_t longer = t->next[slot];
        if (longer) { /* not a run: a run's next pixel of its colour was taken above */
            prefix = longer;
            same = 0;
            i++;
            continue;
        }
        put_code(&w, prefix, width);
        t->next[slot] = (uint16_t)free_code;
        t->made[t->count++] = slot;
        if (same && pixel == colour) {
            t->run[colour][same + 1] = (uint16_t)free_code;
            t->longest[colour] = (uint16_t)(same + 1);
        }
        /* A decoder makes the same string one code later, and widens its codes when its next
           free code no longer fits: the code after this one is read at the wider width. */
        if (free_code == (1u << width) && width < 12) {
            width++;
        }
        if (++free_code == MAX_CODES) {
            put_code(&w, CLEAR_CODE, width);
            clear_table(t);
            width = ROOT_BITS + 1;
            free_code = FIRST_FREE;
        }
        prefix = pixel;
        colour = pixel;
        same = 1;
        i++;
    }
    put_code(&w, prefix, width);
    if (free_code == (1u << width) && width < 12) { /* the decoder's string for the last code */
        width++;
    }
    put_code(&w, END_CODE, width);
    if (w.held > 0) {
        put_byte(&w, (uint8_t)w.bits);
    }
    out[w.block] = (uint8_t)(w.size - w.block - 1);
    out[w.size++] = 0; /* the empty block that ends the picture's data */
    return w.size;
}

static size_t worst_case(size_t n) {
    /* At most one 12-bit code per pixel, a clear code per 3838 of them, and the three codes
       around them; a length byte per 255 bytes. */
    size_t data = (n + n / 3838 + 4) * 12 / 8 + 2;
    return data + data / 255 + 3;
}

static PyObject *lzw_compress(PyObject *self, PyObject *arg) {
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) {
        return NULL;
    }
    if (view.len == 0) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "a picture has at least one pixel");
        return NULL;
    }
    if (table == NULL) {
        table = calloc(1, sizeof(Table));
        if (table == NULL) {
            PyBuffer_Release(&view);
            return PyErr_NoMemory();
        }
    }
    size_t room = worst_case((size_t)view.len);
    uint8_t *out = malloc(room);
    if (out == NULL) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    size_t size;
    Py_BEGIN_ALLOW_THREADS
    size = compress(view.buf, (size_t)view.len, out);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    PyObject *result = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)size);
    free(out);
    return result;
}

static PyMethodDef methods[] = {
    {"compress", lzw_compress, METH_O,
     "compress(pixels) -> bytes: a 256-colour picture's pixels (one byte each, row by row) as "
     "GIF image data: the LZW stream in sub-blocks, ended by an empty block (the minimum code "
     "size byte, 8, goes before it)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "render._lzw", NULL, -1, methods};

PyMODINIT_FUNC PyInit__lzw(void) { return PyModule_Create(&module); }
