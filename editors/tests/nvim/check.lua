-- Neovim as a real client of `pcl lsp` (run headless by crates/pcl-cli/tests/lsp_clients.rs):
--   PCL_BIN=/path/to/pcl PCL_FIXTURE=/tmp/copy-of-fixture \
--     nvim --headless -u NONE -i NONE -c "luafile editors/tests/nvim/check.lua"
-- Opens a two-file program with a component and checks diagnostics, hover, definition,
-- references, document highlights, selection ranges, rename, completion, formatting and an
-- edit-then-diagnostics round trip.
-- Exits 0 when every check passes, 1 with a message on standard error otherwise.
-- Works with Neovim 0.7 (Debian 12) and later: vim.lsp.start when there is one.

local bin = os.getenv("PCL_BIN") or "pcl"
local root = assert(os.getenv("PCL_FIXTURE"), "PCL_FIXTURE is not set")
local TIMEOUT = 20000

local function say(msg)
  io.stderr:write("nvim-lsp: " .. msg .. "\n")
end

local function fail(msg)
  say("FAIL: " .. msg)
  vim.cmd("cquit 1")
end

local published = {} -- uri -> number of publishDiagnostics received
local default_publish = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
  published[result.uri] = (published[result.uri] or 0) + 1
  return default_publish(err, result, ctx, config)
end

local client_id
local config = {
  name = "pcl",
  cmd = { bin, "lsp" },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = "fixture" } },
  init_options = { schemaPaths = {} },
}

local function open(path)
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  vim.bo[buf].filetype = "pcl"
  if vim.lsp.start then
    client_id = vim.lsp.start(config)
  else
    client_id = client_id or vim.lsp.start_client(config)
    vim.lsp.buf_attach_client(buf, client_id)
  end
  return buf
end

local function client()
  return vim.lsp.get_client_by_id(client_id)
end

local function wait(what, predicate)
  if not vim.wait(TIMEOUT, predicate, 20) then
    fail("timed out waiting for " .. what)
  end
end

-- The (0-based) position of the first `needle` in buffer `buf`, `delta` characters on.
local function position(buf, needle, delta)
  for i, line in ipairs(vim.api.nvim_buf_get_lines(buf, 0, -1, false)) do
    local col = line:find(needle, 1, true)
    if col then
      return { line = i - 1, character = col - 1 + (delta or 0) }
    end
  end
  fail("no " .. needle .. " in buffer " .. buf)
end

local function request(method, params, buf)
  local response, err = client().request_sync(method, params, TIMEOUT, buf)
  if not response then
    fail(method .. ": " .. tostring(err))
  end
  if response.err then
    fail(method .. ": " .. vim.inspect(response.err))
  end
  return response.result
end

local function doc(buf)
  return { uri = vim.uri_from_bufnr(buf) }
end

local function errors(buf)
  return vim.diagnostic.get(buf, { severity = vim.diagnostic.severity.ERROR })
end

local function text(buf)
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, false), "\n")
end

local function run()
  local main = open(root .. "/main.pp")
  wait("the server to initialize", function()
    local c = client()
    return c ~= nil and c.initialized ~= false and c.server_capabilities ~= nil
      and next(c.server_capabilities) ~= nil
  end)
  local other = open(root .. "/other.pp")
  local main_uri, other_uri = vim.uri_from_bufnr(main), vim.uri_from_bufnr(other)

  -- Diagnostics: published for both open files, and clean.
  wait("diagnostics of main.pp and other.pp", function()
    return (published[main_uri] or 0) > 0 and (published[other_uri] or 0) > 0
  end)
  if #errors(main) + #errors(other) > 0 then
    fail("unexpected diagnostics: " .. vim.inspect(vim.diagnostic.get()))
  end
  say("ok: diagnostics")

  -- Hover over `greeting` where the component block uses it.
  local hover = request("textDocument/hover",
    { textDocument = doc(main), position = position(main, "= greeting", 3) }, main)
  local contents = hover and hover.contents and (hover.contents.value or hover.contents) or ""
  if type(contents) ~= "string" or not contents:find("string", 1, true) then
    fail("hover: " .. vim.inspect(hover))
  end
  say("ok: hover")

  -- Definition of `greeting` from other.pp lands on its declaration in main.pp.
  local def = request("textDocument/definition",
    { textDocument = doc(other), position = position(other, "greeting", 2) }, other)
  local loc = def and (def[1] or def)
  local want = position(main, "greeting =", 0)
  if not loc or loc.uri ~= main_uri or loc.range.start.line ~= want.line then
    fail("definition: " .. vim.inspect(def))
  end
  say("ok: definition")

  -- References of `greeting`, declaration included: in both files.
  local refs = request("textDocument/references", {
    textDocument = doc(main), position = position(main, "greeting =", 1),
    context = { includeDeclaration = true },
  }, main)
  local files = {}
  for _, r in ipairs(refs or {}) do files[r.uri] = true end
  if not (files[main_uri] and files[other_uri]) or #refs < 3 then
    fail("references: " .. vim.inspect(refs))
  end
  say("ok: references (" .. #refs .. ")")

  -- Highlights of `greeting` in main.pp: its declaration (written) and the component's read.
  local marks = request("textDocument/documentHighlight",
    { textDocument = doc(main), position = position(main, "= greeting", 3) }, main)
  local decl = position(main, "greeting =", 0)
  if not marks or #marks ~= 2 or marks[1].range.start.line ~= decl.line or marks[1].kind ~= 3
    or marks[2].kind ~= 2 then
    fail("documentHighlight: " .. vim.inspect(marks))
  end
  say("ok: documentHighlight")

  -- Expanding the selection from inside `${prefix}`: the name first, then larger ranges.
  local sel = request("textDocument/selectionRange",
    { textDocument = doc(main), positions = { position(main, "${prefix}", 3) } }, main)
  local first = sel and sel[1]
  local name_at = position(main, "prefix}", 0)
  if not first or first.range.start.character ~= name_at.character
    or first.range["end"].character ~= name_at.character + 6 or not first.parent then
    fail("selectionRange: " .. vim.inspect(sel))
  end
  say("ok: selectionRange")

  -- Completion after `web.`: the component's outputs.
  local items = request("textDocument/completion",
    { textDocument = doc(main), position = position(main, "web.url", 4) }, main)
  items = items and (items.items or items) or {}
  local found = false
  for _, item in ipairs(items) do
    if item.label == "url" then found = true end
  end
  if not found then fail("completion after `web.`: " .. vim.inspect(items)) end
  say("ok: completion (" .. #items .. " items)")

  -- Rename `greeting` → `salutation` across both files.
  local edit = request("textDocument/rename", {
    textDocument = doc(main), position = position(main, "greeting =", 1), newName = "salutation",
  }, main)
  if not edit then fail("rename: no edit") end
  vim.lsp.util.apply_workspace_edit(edit, "utf-16")
  if text(main):find("greeting", 1, true) or text(other):find("greeting", 1, true)
    or not text(other):find("salutation", 1, true) then
    fail("rename did not rename everything:\n" .. text(main) .. "\n---\n" .. text(other))
  end
  say("ok: rename")

  -- Formatting: a badly spaced attribute is realigned.
  vim.api.nvim_buf_set_lines(other, -1, -1, false, { "", "extra   =     1" })
  local edits = request("textDocument/formatting",
    { textDocument = doc(other), options = { tabSize = 2, insertSpaces = true } }, other)
  vim.lsp.util.apply_text_edits(edits or {}, other, "utf-16")
  if not text(other):find("\nextra = 1", 1, true) then
    fail("formatting: " .. vim.inspect(edits) .. "\n" .. text(other))
  end
  say("ok: formatting")

  -- An edit that breaks a reference: an error arrives; the repair clears it.
  vim.api.nvim_buf_set_lines(other, -1, -1, false, { "broken = noSuchName" })
  -- Intermediate states (one file renamed before the other) may be published on the way.
  wait("an error naming noSuchName after the edit", function()
    local errs = errors(other)
    return #errs == 1 and errs[1].message:find("noSuchName", 1, true) ~= nil
  end)
  vim.api.nvim_buf_set_lines(other, -2, -1, false, { "fixed = salutation" })
  wait("the error to clear", function() return #errors(other) == 0 end)
  say("ok: edit then diagnostics")

  vim.lsp.stop_client(client_id)
  vim.wait(2000, function() return vim.lsp.get_client_by_id(client_id) == nil end, 20)
  say("all checks passed")
  vim.cmd("qall!")
end

local ok, err = xpcall(run, debug.traceback)
if not ok then fail(tostring(err)) end
