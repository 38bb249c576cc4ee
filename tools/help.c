/* The help text, in one place: `gpucache help`, every `gpucache COMMAND --help` and the
 * man page gpucache(1) (`gpucache --man`, run by the build) are printed from these
 * tables (printed by help_print.c), so that the three cannot drift apart. */
#include "gpucache/gpucache.h"

#include "help.h"
#include "help_table.h"

#define END_OPTIONS {NULL, NULL}
#define OPT_TOPOLOGY {"-t, --topology TOPOLOGY", "the primitive topology (TOPOLOGY in 'gpucache help')"}
#define OPT_RESTART {"--restart[=VALUE]", "primitive restart: VALUE (decimal or 0x hex) ends a strip or fan;\n" \
                                          "default 0xFFFF for 16-bit input, else 0xFFFFFFFF"}
#define OPT_POSITIONS {"--positions", "OBJ: a vertex is its position index alone (ignore vt and vn)"}
#define OPT_HELP {"-h, --help", "print this help and exit"}
#define OPT_EXTERNAL_URIS {"--allow-external-uris", "glTF: follow buffer and image URIs out of INPUT's folder\n" \
                                                    "(absolute paths, '..'); refused otherwise"}

static const char* const analyze_usage[] = {
    "analyze [-m MODEL]... [-t TOPOLOGY] [--restart[=VALUE]] [--state-changes FILE] [--json]\n"
    "        [--per-vertex FILE.csv] [--trace] [--repeat N] [--positions] [--threads N]\n"
    "        [--allow-external-uris] [--heatmap FILE.svg|FILE.png [--view VIEW] [--heatmap-max N]]\n"
    "        [--trace-plot FILE.svg|FILE.png [--from P] [--count N]] [--overdraw] [--fetch SPEC]\n"
    "        [--overdraw-map FILE.svg|FILE.png [--view VIEW]] INPUT",
    "analyze --meshlets FILE [--json] INPUT",
    NULL};
static const help_option analyze_options[] = {
    {"-m, --model MODEL", "a model to analyze under (repeatable; default: every preset)"},
    OPT_TOPOLOGY,
    OPT_RESTART,
    {"--state-changes FILE", "index positions (text) where the render state changes (runs analyzed apart)"},
    {"--json", "print JSON (docs/json.md) instead of a table"},
    {"--per-vertex FILE.csv", "write each vertex's shader invocations per model ('-': standard output)"},
    {"--trace", "print each index's hit or miss under each model"},
    {"--repeat N", "time each model over N runs of the analysis and show the time"},
    {"--heatmap FILE.svg|FILE.png", "draw the mesh (OBJ, PLY, glTF) coloured by each vertex's invocations under\n"
                           "the first model, with a colour bar and the totals (docs/pictures.md); .png:\n"
                           "rendered by rsvg-convert (librsvg2-bin)"},
    {"--view VIEW", "the heat map's view: front (default, along -Z), side (along -X) or top (along -Y)"},
    {"--heatmap-max N", "the heat map's colour scale ends at N invocations (default: the largest count),\n"
                        "so that two pictures compare colour for colour"},
    {"--trace-plot FILE.svg|FILE.png", "draw the first model's cache after each primitive: slots down,\n"
                              "primitives across, a dot where a value entered, a line where entries were\n"
                              "lost; .png: rendered by rsvg-convert"},
    {"--overdraw", "measure overdraw (OBJ, PLY, glTF: the positions' six views, meshoptimizer's\n"
                   "definition; docs/models/overdraw.md): pixels covered, shaded, their ratio"},
    {"--overdraw-map FILE.svg|FILE.png", "draw one view of the overdraw model (--view: front, side, top):\n"
                                         "each pixel coloured by the fragments shaded there (docs/pictures.md)"},
    {"--meshlets FILE", "check a meshlet data file (meshlets --data) against INPUT: every triangle of\n"
                        "INPUT in exactly one meshlet, within the limits; then its figures"},
    {"--fetch SPEC", "model the bytes the vertex fetch reads (docs/models/fetch.md): meshopt:BYTES\n"
                     "(meshopt_analyzeVertexFetch's, every index reference), gcn:BYTES (seed 003's GPU,\n"
                     "per model) or cache:LINE,SIZE,WAYS:BYTES (per model)"},
    {"--from P", "the first primitive --trace-plot draws (default 0)"},
    {"--count N", "the primitives --trace-plot draws (1 to 5000; default 200)"},
    OPT_POSITIONS,
    {"--threads N", "models run on N threads (1 to 64; default: the machine's cores); the draw\n"
                    "is read and scanned once for all of them"},
    OPT_EXTERNAL_URIS,
    OPT_HELP,
    END_OPTIONS};

static const char* const probe_usage[] = {
    "probe [-t TOPOLOGY] [--restart[=VALUE]] [--outputs N] [--device N | --model MODEL] [--json]\n"
    "      [--per-vertex FILE.csv] INPUT",
    "probe --list [--json]",
    "probe --suite -o FILE.json [--device N | --model MODEL]",
    "probe --overdraw [--device N] [--json] MESH",
    NULL};
static const help_option probe_options[] = {
    OPT_TOPOLOGY,
    OPT_RESTART,
    {"--outputs N", "vertex shader outputs (1 to 32; some GPUs size their cache by them)"},
    {"--device N", "the Vulkan device to use (see --list; default 0)"},
    {"--model MODEL", "an emulated device: run MODEL instead of a GPU"},
    {"--json", "print JSON (docs/json.md)"},
    {"--per-vertex FILE.csv", "write each vertex's measured invocations ('-': standard output)"},
    {"--list", "list the Vulkan devices"},
    {"--suite", "measure the standard diagnostic suite into -o FILE.json (for fit)"},
    {"--overdraw", "render MESH's overdraw views (docs/models/overdraw.md) on the device and\n"
                   "count the shaded fragments, beside the model's count"},
    {"-o, --output FILE.json", "the measurement file of --suite ('-': standard output)"},
    OPT_HELP,
    END_OPTIONS};

static const char* const introspect_usage[] = {
    "introspect [-t TOPOLOGY] [--restart[=VALUE]] [--device N | -m MODEL] [--outputs N]\n"
    "           [--max-lookups N] [--json] INPUT",
    NULL};
static const help_option introspect_options[] = {
    OPT_TOPOLOGY,
    OPT_RESTART,
    {"--device N", "introspect Vulkan device N (default 0)"},
    {"-m, --model MODEL", "introspect a model instead of a device"},
    {"--outputs N", "vertex shader outputs on the device (1 to 32)"},
    {"--max-lookups N", "at most N simulated cache lookups (K, M, G suffixes)"},
    {"--json", "print JSON (docs/json.md)"},
    OPT_HELP,
    END_OPTIONS};

static const char* const fit_usage[] = {"fit [--top N] [--threads N] [-m MODEL]... [--json] [--plot FILE.svg|FILE.png] FILE.json", NULL};
static const help_option fit_options[] = {
    {"--top N", "show the N best candidates (default 5)"},
    {"--threads N", "worker threads (default: every core)"},
    {"-m, --model MODEL", "rank only these models (repeatable; default: search every family)"},
    {"--json", "print JSON (docs/json.md); its best model is what -m @FILE reads"},
    {"--plot FILE.svg|FILE.png", "draw predicted/measured invocations of every case for the best models\n"
                        "(at most 5, one panel each; docs/pictures.md); .png: rendered by rsvg-convert"},
    OPT_HELP,
    END_OPTIONS};

static const char* const meshlets_usage[] = {
    "meshlets (--max-vertices V --max-triangles T | --target PRESET) [--data FILE [--bounds]]\n"
    "         [--scan] [--no-local-order] [--seed S] [--effort E] [--allow-external-uris] [--json]\n"
    "         INPUT -o OUTPUT",
    "meshlets --check FILE [--json]",
    NULL};
static const help_option meshlets_options[] = {
    {"--check FILE", "read and validate a data file (--data's), and print its figures"},
    {"-o, --output OUTPUT", "the mesh in INPUT's format, its triangles in meshlet order"},
    {"--max-vertices V", "at most V unique vertices a meshlet (3 to 256)"},
    {"--max-triangles T", "at most T triangles a meshlet (1 to 512)"},
    {"--target PRESET", "a vendor's published limits: nvidia (64 vertices, 126 triangles)"},
    {"--data FILE", "also write the meshlet arrays (docs/formats/meshlets.md)"},
    {"--bounds", "add each meshlet's sphere and normal cone to the data file (OBJ, PLY, glTF)"},
    {"--scan", "cut INPUT's own order (no reordering by auto first)"},
    {"--no-local-order", "keep each meshlet's triangles in auto's order"},
    {"--seed S", "perturbs auto's greedy reproducibly"},
    {"--effort E", "1 to 4: auto tries more orders (slower)"},
    {"--allow-external-uris", "glTF: follow URIs outside the input's folder"},
    {"--json", "print JSON (docs/json.md)"},
    OPT_HELP,
    END_OPTIONS};

static const char* const optimize_usage[] = {
    "optimize -a tipsify|forsyth|auto [-m TARGET]... [--cache N] [--seed S] [--effort E]\n"
    "         [--reorder-vertices [--remap MAP.u32]] [--overdraw-threshold T] [--overdraw-lambda L]\n"
    "         [--fetch meshopt:BYTES] [--allow-external-uris] [--json] INPUT -o OUTPUT",
    NULL};
static const help_option optimize_options[] = {
    {"-a, --algorithm NAME", "tipsify, forsyth or auto (auto: search for the -m targets)"},
    {"-m, --model TARGET", "a model auto optimizes for (repeatable; default: the presets)"},
    {"-o, --output OUTPUT", "the reordered mesh, in INPUT's format ('-': standard output)"},
    OPT_TOPOLOGY,
    OPT_RESTART,
    {"--cache N", "the cache size tipsify and forsyth assume (3 to 65536)"},
    {"--seed S", "perturbs auto's greedy reproducibly"},
    {"--effort E", "1 to 4: more candidates and local search (slower)"},
    {"--reorder-vertices", "also renumber the vertices in order of first use"},
    {"--overdraw-threshold T", "auto, on a mesh with positions: each target's invocations may rise to\n"
                               "T x auto's best while overdraw is lowered (default 1.05; 1: off)"},
    {"--overdraw-lambda L", "tipsify: Sander et al.'s overdraw clusters, cut where their misses per\n"
                            "triangle drop below L (0 to 3; default 0: off)"},
    {"--fetch meshopt:BYTES", "the vertex size of the bytes-fetched row (default meshopt:32); with the\n"
                              "overdraw row (inputs with positions) it shows input and output"},
    {"--remap MAP.u32", "write the old-to-new vertex map (uint32 LE per input vertex, 0xFFFFFFFF\n"
                        "unused) of an index-buffer INPUT (.txt .idx .u16 .u32 -)"},
    OPT_POSITIONS,
    OPT_EXTERNAL_URIS,
    {"--json", "print JSON (docs/json.md) instead of a table"},
    OPT_HELP,
    END_OPTIONS};

static const char* const grid_usage[] = {"grid W H [--layout rowmajor|striped|optimal] [--cache N] -o FILE", NULL};
static const help_option grid_options[] = {
    {"--layout NAME", "rowmajor (default), striped or optimal (seed 002)"},
    {"--cache N", "the cache size the striped and optimal layouts are made for (default 16)"},
    {"-o, --output FILE", ".txt .idx .u16 .u32 .obj or .ply ('-': text on standard output)"},
    OPT_HELP,
    END_OPTIONS};

static const char* const sweep_usage[] = {
    "sweep [--mesh grid:WxH | --mesh FILE]... [-a LAYOUTS] [--cache A..B] [-m MODEL]...\n"
    "      [--csv OUT.csv] [--plot OUT.png|OUT.svg] [--json] [--threads N]",
    NULL};
static const help_option sweep_options[] = {
    {"--mesh SPEC", "grid:WxH (W, H <= 4000) or a mesh file (repeatable; default grid:100x100)"},
    {"-a, --algorithms LAYOUTS", "comma-separated: optimal striped tipsify forsyth auto original"},
    {"--cache A..B", "the target cache sizes (default 3..64)"},
    {"-m, --model MODEL", "a model to analyze under (repeatable; default intel); 'device' or\n"
                          "'device:N' measures on a Vulkan device"},
    {"--csv OUT.csv", "write every row as CSV ('-': standard output)"},
    {"--plot OUT.png|OUT.svg", "draw the curves with gnuplot (and keep its script beside): one panel per\n"
                             "mesh and model, the legend above them, ATVR 1.0 dotted, seed 002's\n"
                             "published points beside vendor models on grid:100x100"},
    {"--json", "print JSON (docs/json.md) instead of the best sizes"},
    {"--threads N", "worker threads (default: every core)"},
    OPT_HELP,
    END_OPTIONS};

static const char* const validate_usage[] = {
    "validate [-m MODEL]... [--data DIR|FILE] [--vendor V] [--tolerance PCT] [--json | --markdown]\n"
    "         [--plot OUT.svg|OUT.png]",
    NULL};
static const help_option validate_options[] = {
    {"-m, --model MODEL", "a model to validate (repeatable; default: every preset)"},
    {"--data DIR|FILE", "the published measurements (default: the source tree's data/published)"},
    {"--vendor V", "amd, nvidia, intel or all: the values shown (default: the vendor a preset is\n"
                   "named after, every value for other models)"},
    {"--tolerance PCT", "the ATVR error a match allows, in percent (default 2)"},
    {"--json", "print JSON (docs/json.md)"},
    {"--markdown", "print the tables of docs/models/validation.md"},
    {"--plot OUT.svg|OUT.png", "draw the models' grid:100x100 curves (optimal, striped, tipsify, cache\n"
                               "3..64) with seed 002's published points (the sweep's figure)"},
    OPT_HELP,
    END_OPTIONS};

static const char* const report_usage[] = {
    "report [-m MODEL] [--cache A..B] [--view VIEW] [--positions] [--threads N] -o OUT.html INPUT",
    NULL};
static const help_option report_options[] = {
    {"-o, --output OUT.html", "the page to write ('-': standard output)"},
    {"-m, --model MODEL", "the heat maps' model and optimize -a auto's target (one; default generic)"},
    {"--cache A..B", "the sweep's target cache sizes, 3 <= A < B <= 256 (default 8..32, narrowed\n"
                     "around 16 past 160,000 triangles so that the sweep stays seconds)"},
    {"--view VIEW", "the heat maps' view: front (default), side or top"},
    OPT_POSITIONS,
    {"--threads N", "worker threads for the analyses and the sweep (default: every core)"},
    OPT_HELP,
    END_OPTIONS};

static const char* const memsys_usage[] = {
    "memsys [--strategy as-written|l1-bypass|l2-bypass|sc-as-uc] [--json] [--max-accesses N] SCENARIO",
    "memsys --compare [--json] [--plot FILE.svg|FILE.png] [--max-accesses N] SCENARIO",
    NULL};
static const help_option memsys_options[] = {
    {"--strategy NAME", "the flush strategy to price (default as-written)"},
    {"--compare", "price the four strategies and rank them"},
    {"--plot FILE.svg|FILE.png", "with --compare: each strategy's cycles as a stacked bar (bus traffic,\n"
                        "invalidates, writebacks), the best marked (docs/pictures.md); .png:\n"
                        "rendered by rsvg-convert"},
    {"--max-accesses N", "at most N simulated line accesses (K, M, G suffixes; default 2^27)"},
    {"--json", "print JSON (docs/json.md)"},
    OPT_HELP,
    END_OPTIONS};

static const char* const demo_usage[] = {"demo [--json]", NULL};
static const help_option demo_options[] = {{"--json", "print JSON (docs/json.md)"}, OPT_HELP, END_OPTIONS};

static const char* const models_usage[] = {"models [--json]", NULL};
static const help_option models_options[] = {{"--json", "print JSON (docs/json.md)"}, OPT_HELP, END_OPTIONS};

static const char* const help_usage[] = {"help [COMMAND]", NULL};
static const help_option help_options[] = {END_OPTIONS};

const help_command help_commands[] = {
    {"analyze", "what each model's vertex cache does with one draw", analyze_usage,
     "Reads INPUT, builds the draw the options describe and prints, for each model, the vertex\n"
     "shader invocations, ATVR (invocations per vertex) and ACMR (per triangle). A .gltf/.glb\n"
     "INPUT is analyzed draw by draw: one row per mesh primitive, on its own indices and mode,\n"
     "and the sums over all draws.",
     analyze_options, "gpucache analyze -m fifo:16 -m nvidia mesh.obj"},
    {"probe", "count vertex shader invocations on a Vulkan device", probe_usage,
     "Draws INPUT on a Vulkan device (or an emulated one) and counts its vertex shader\n"
     "invocations; --list shows the devices; --suite measures the diagnostic suite that fit reads.",
     probe_options, "gpucache probe --suite -o gpu.json"},
    {"introspect", "which indices are still cached after INPUT (seed 000's method)", introspect_usage,
     "Draws INPUT, then INPUT followed by (I, I, I) for each candidate I: when the count did not\n"
     "grow, I was still cached. Runs on a device or on any model.",
     introspect_options, "gpucache introspect -m fifo:8 grid:4x4"},
    {"fit", "rank the models that predict a measurement file", fit_usage,
     "Reads a measurement file (probe --suite) and searches every model family for the models\n"
     "that predict its counts, best first, with the cases each gets wrong.",
     fit_options, "gpucache fit --json gpu.json > gpu-model.json"},
    {"optimize", "reorder the triangles for the vertex cache", optimize_usage,
     "Reorders INPUT's triangles (each run of faces on its own) and writes OUTPUT in INPUT's\n"
     "format, then shows what every preset (and each target) says before and after. glTF:\n"
     "each indexed triangle list's index data is rewritten in place, in its component type\n"
     "(strips and fans are kept); everything else in the file stays as it was.",
     optimize_options, "gpucache optimize -a auto -m nvidia mesh.obj -o mesh-opt.obj"},
    {"meshlets", "cut the mesh into meshlets for mesh shaders", meshlets_usage,
     "Reorders INPUT's triangles with auto for the batch-all rule of V vertices and 3T indices,\n"
     "then cuts them into meshlets by scanning: a meshlet ends where the next triangle would\n"
     "bring a (V+1)th vertex or a (T+1)th triangle. OUTPUT, in INPUT's format, holds the\n"
     "triangles in meshlet order, so that scanning its index buffer gives exactly these\n"
     "meshlets; --data writes them as arrays in meshoptimizer's layout. docs/models/meshlets.md.",
     meshlets_options, "gpucache meshlets --target nvidia mesh.obj -o mesh-ml.obj --data mesh.meshlets"},
    {"grid", "write a W x H quad grid in one of seed 002's layouts", grid_usage,
     "Writes the index buffer of a grid of W x H quads (two triangles each), as text, raw\n"
     "indices or a mesh with positions (.obj, ASCII .ply), by OUTPUT's extension.",
     grid_options, "gpucache grid 100 100 --layout optimal --cache 16 -o grid.txt"},
    {"sweep", "seed 002's experiment: ATVR against the target cache size per layout", sweep_usage,
     "For each mesh, layout and target cache size, builds the index buffer (grids in the layout,\n"
     "meshes optimized for that size) and analyzes it under every model.",
     sweep_options, "gpucache sweep --mesh grid:64x64 --cache 8..32 --csv - > sweep.csv"},
    {"validate", "every preset against the measurements published for real GPUs", validate_usage,
     "Rebuilds each published index buffer (data/published: seeds 000-002, Kerbl et al. 2018),\n"
     "predicts each figure under each model and prints predicted against published, with the\n"
     "error; a best cache size is compared as a size, an ATVR relatively.",
     validate_options, "gpucache validate -m amd-seed002 -m amd-gcn"},
    {"report", "one self-contained HTML page: table, heat maps, sweep, commands", report_usage,
     "Writes one HTML page about INPUT (no network, pictures inline as SVG): its summary, every\n"
     "preset's invocations, ACMR, ATVR and batches (analyze --json's numbers) before and after\n"
     "optimize -a auto for MODEL, the heat maps of MODEL before and after on one colour scale,\n"
     "the sweep of the layouts over the cache sizes (gnuplot; without it, a note), and the\n"
     "commands that redo each part. A glTF is read as analyze reads it: each mesh primitive\n"
     "its own draw, the numbers summed. See docs/report.md.",
     report_options, "gpucache report -m nvidia mesh.obj -o report.html"},
    {"memsys", "seed 003's console memory system", memsys_usage,
     "Prices a scenario's caches, buses, invalidates and writebacks, finds its hazards, and with\n"
     "--compare ranks the flush strategies.",
     memsys_options, "gpucache memsys --compare scenario.txt"},
    {"demo", "analyze a generated 100x100 grid in several orders under every preset", demo_usage,
     "Needs no file: a 100x100 quad grid in four orders, analyzed under every preset.", demo_options,
     "gpucache demo"},
    {"models", "list model families and presets", models_usage,
     "Lists the model families (the MODEL syntax) and the presets with their sources.", models_options,
     "gpucache models --json"},
    {"help", "print the help of gpucache or of one command", help_usage,
     "Without COMMAND, the overview; with one, the same as 'gpucache COMMAND --help'.", help_options,
     "gpucache help optimize"},
};
const size_t help_command_count = sizeof help_commands / sizeof help_commands[0];

const char* const help_global_usage[] = {
    "[-q | -v] COMMAND [OPTION]... [ARGUMENT]...",
    "COMMAND --help",
    "--version",
    NULL};

const help_option help_global_options[] = {
    {"-q, --quiet", "no progress lines nor notes on standard error (errors still show)"},
    {"-v, --verbose", "more detail on standard error: what was read, how long each step took"},
    {"-h, --help", "print the overview, or with a COMMAND that command's help"},
    {"--version", "print the version and the features of this build"},
    END_OPTIONS};

const help_section help_sections[] = {
    {"INPUT", ".txt/.idx (text indices, '#' comments), .u16/.u32 (raw little-endian), .obj, .ply,\n"
              "other mesh formats through assimp (.gltf, .glb, .fbx, .dae, .stl, ...), or grid:WxH for a\n"
              "generated row-major grid of W x H quads. '-' reads standard input: a PLY (by its \"ply\"\n"
              "magic), an OBJ (a first token that is a word) or text indices; txt:- obj:- ply:- u16:-\n"
              "u32:- name the format (binary formats on standard input: at most 1 GiB).\n"
              "Every other file an option reads (--state-changes, a SCENARIO, a fit's FILE.json,\n"
              "-m @FILE) may also be '-'."},
    {"OUTPUT", "Every output file is written whole or not at all (a temporary renamed when complete).\n"
               "'-' writes it to standard output instead; the command's own report (its table or\n"
               "--json) then goes to standard error. One output at most can be '-'. sweep --plot\n"
               "needs a file name: the image type comes from it."},
    {"MODEL", NULL}, /* from the family table: model_help_text() */
    {"TOPOLOGY", "point-list line-list line-strip line-loop triangle-list triangle-strip triangle-fan\n"
                 "quad-list polygon (default: triangle-list, or what the file says)."},
    {"LIMITS", "grid:WxH and grid W H: W, H <= 20000 and W x H <= 16777216 quads; sweep's grids:\n"
               "W, H <= 4000. memsys: at most 134217728 (2^27) simulated line accesses per command\n"
               "(--compare: its four replays together; each line an invalidate or writeback goes\n"
               "over counts as one, an access on caches of more than 32 ways together as\n"
               "ceil(ways / 32)); --max-accesses N changes it (K, M, G suffixes). A scenario holds\n"
               "at most 1048576 operations, 65536 buffers and 4194304 cache lines. Work longer than\n"
               "a second shows a progress line when standard error is a terminal (not with -q)."},
    {"EXIT STATUS", "0 success; 1 bad input or failed work (a file that cannot be read, parsed or\n"
                    "written, a limit reached, a device that failed); 2 usage error (an unknown\n"
                    "command or option, a missing or malformed argument, an output over an input)."},
};
const size_t help_section_count = sizeof help_sections / sizeof help_sections[0];

const char* help_section_text(size_t i)
{
    return help_sections[i].text ? help_sections[i].text : model_help_text();
}
