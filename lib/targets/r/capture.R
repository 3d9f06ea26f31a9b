# Runpad's R side (lib/targets/r): evaluates one run's code and returns what it did as a list of
# events, in order. The R worker (lib/targets/r/engine/r.worker.ts) converts them into the output protocol
# (lib/targets/r/events.client.ts); nothing here trusts the page or is trusted by it.
#
# - Every top-level expression is evaluated in the global environment; a visible value is printed as
#   R prints it, except data frames and matrices, which become tables (first rows and columns).
# - Printed output goes to a file through sink(), read back whenever a message, warning or error
#   has to be placed after it, so the events keep R's order.
# - Plots go to png() files: options(device) opens one for any plot, and every device still open
#   at the end of the run is closed, so a plot left open is kept too. A PNG is written only when its
#   page is done, so where a page begins (graphics' before.plot.new and grid's before.grid.newpage
#   hooks) is marked in the events by a `plot` event naming the file it will be; events.ts puts
#   each PNG there, so a plot sits between the text printed before and after it, as in R.
# - A missing package is installed from the configured repository when it can be reached; when it
#   cannot, library() fails at once with a message that says to use base R.
local({
  runpad <- new.env()

  # Set by the worker at start (lib/targets/r/engine/r.worker.ts): the package repository and the output caps.
  runpad$repo <- "https://repo.r-wasm.org/"
  runpad$repo_reachable <- FALSE
  runpad$caps <- list(rows = 1000L, columns = 200L, chars = 200000L, stream_bytes = 1000000L, plot_width = 700L, plot_height = 500L)
  runpad$plot_dir <- "/tmp/runpad-plots"
  runpad$base_packages <- c("base", "compiler", "datasets", "grDevices", "graphics", "grid", "methods", "splines", "stats", "stats4", "tools", "utils", "webr")

  runpad$installed <- function(name) nzchar(system.file(package = name))

  runpad$ensure_package <- function(name) {
    if (runpad$installed(name)) return(invisible(TRUE))
    # The worker asked the repository once at start; an unreachable one fails at once, not after a download's timeout.
    if (isTRUE(runpad$repo_reachable)) tryCatch(
      suppressMessages(suppressWarnings(webr::install(name, repos = runpad$repo, quiet = TRUE))),
      error = function(e) NULL
    )
    if (runpad$installed(name)) return(invisible(TRUE))
    message <- sprintf(
      "The R package '%s' is not available: it is not part of base R here and could not be downloaded from the package repository (%s). Use base R instead (graphics for plots, stats for models, utils for reading files).",
      name, runpad$repo
    )
    stop(structure(class = c("packageNotFoundError", "error", "condition"), list(message = message, call = NULL)))
  }

  # library() and require() that install a missing package first (masking base's on the search path).
  runpad$library <- function(package, ..., character.only = FALSE) {
    if (missing(package)) return(base::library(...))
    name <- if (character.only) package else as.character(substitute(package))
    runpad$ensure_package(name)
    base::library(name, character.only = TRUE, ...)
  }
  runpad$require <- function(package, ..., character.only = FALSE) {
    name <- if (character.only) package else as.character(substitute(package))
    ok <- tryCatch({ runpad$ensure_package(name); TRUE }, error = function(e) { message(conditionMessage(e)); FALSE })
    if (!ok) return(invisible(FALSE))
    base::require(name, character.only = TRUE, ...)
  }
  runpad$install.packages <- function(pkgs, ...) {
    for (name in pkgs) runpad$ensure_package(name)
    invisible(NULL)
  }

  runpad$cell_values <- function(v, max_chars) {
    if (is.factor(v)) v <- as.character(v)
    if (inherits(v, c("Date", "POSIXt", "difftime"))) return(list(type = "string", values = ifelse(is.na(v), NA_character_, format(v))))
    if (is.logical(v)) return(list(type = "boolean", values = v))
    if (is.integer(v)) return(list(type = "integer", values = v))
    if (is.numeric(v)) return(list(type = "number", values = as.double(v)))
    if (is.character(v)) return(list(type = "string", values = substr(v, 1L, max_chars)))
    text <- vapply(seq_along(v), function(i) paste(format(v[[i]]), collapse = " "), character(1))
    list(type = "string", values = substr(text, 1L, max_chars))
  }

  # A data frame or matrix as a table event: its first rows and columns, with its full shape.
  runpad$table_event <- function(x, caps) {
    nr <- NROW(x)
    nc <- NCOL(x)
    shown <- x[seq_len(min(nr, caps$rows)), seq_len(min(nc, caps$columns)), drop = FALSE]
    row_names <- NULL
    if (is.matrix(shown)) {
      row_names <- rownames(shown)
      names <- colnames(shown)
      if (is.null(names)) names <- paste0("V", seq_len(ncol(shown)))
      shown <- as.data.frame(shown, stringsAsFactors = FALSE)
      names(shown) <- names
    } else if (.row_names_info(x) > 0L) {
      row_names <- rownames(shown)
    }
    names <- make.unique(c(if (!is.null(row_names)) "(row)", ifelse(nzchar(names(shown)), names(shown), "(blank)")))
    columns <- lapply(shown, runpad$cell_values, max_chars = caps$chars)
    if (!is.null(row_names)) columns <- c(list(list(type = "string", values = row_names)), columns)
    text <- paste(utils::capture.output(print(utils::head(x, 20L))), collapse = "\n")
    list(
      type = "table",
      names = names,
      columns = unname(columns),
      index = !is.null(row_names),
      shape = c(nr, nc),
      text = substr(text, 1L, caps$chars)
    )
  }

  runpad$user_frames <- function(calls) {
    # The user's frames are those after our evaluation wrapper and its eval(), up to the handler.
    at <- which(vapply(calls, function(call) identical(call[[1]], quote(runpad_eval_user)), logical(1)))
    if (!length(at)) return(character())
    frames <- calls[seq_len(length(calls))[-seq_len(max(at) + 2L)]]
    frames <- utils::head(frames, -1L)
    drop <- vapply(frames, function(call) is.symbol(call[[1]]) && as.character(call[[1]]) %in% c(".handleSimpleError", "h", "stop", "signalCondition", "withCallingHandlers", "doTryCatch", "tryCatchList", "tryCatchOne", "tryCatch"), logical(1))
    frames <- frames[!drop]
    text <- vapply(frames, function(call) paste(deparse(call, nlines = 1L), collapse = ""), character(1))
    utils::head(text[text != "eval(expr, globalenv())" & !startsWith(text, "runpad$")], 20L)
  }

  runpad$call_text <- function(condition) {
    call <- conditionCall(condition)
    if (is.null(call) || identical(call, quote(eval(expr, globalenv())))) return(NA_character_)
    paste(deparse(call, nlines = 1L), collapse = "")
  }

  # Files under /output/ with their size and time, to find what a run wrote.
  runpad$output_files <- function() {
    names <- list.files("/output", recursive = TRUE, all.files = TRUE)
    info <- file.info(file.path("/output", names))
    stats::setNames(paste(info$size, as.numeric(info$mtime)), names)
  }

  runpad$run <- function(code) {
    caps <- runpad$caps
    plot_dir <- runpad$plot_dir
    events <- list()
    add <- function(event) events[[length(events) + 1L]] <<- event

    out_path <- tempfile("runpad-out-")
    out <- file(out_path, open = "w")
    sinks <- sink.number()
    sink(out)
    read <- 0
    flush_out <- function() {
      if (sink.number() > sinks) flush(out)
      size <- file.size(out_path)
      if (is.na(size) || size <= read) return(invisible())
      take <- min(size, caps$stream_bytes) - read
      if (take > 0) {
        con <- file(out_path, "rb")
        seek(con, read)
        bytes <- readBin(con, "raw", take)
        close(con)
        add(list(type = "stream", name = "stdout", text = rawToChar(bytes[bytes != as.raw(0)])))
      }
      if (size > caps$stream_bytes && read < caps$stream_bytes) add(list(type = "stream", name = "stderr", text = "[output truncated]\n"))
      read <<- max(read, size)
    }

    dir.create(plot_dir, showWarnings = FALSE, recursive = TRUE)
    unlink(list.files(plot_dir, full.names = TRUE))
    devices <- 0L
    # Our devices by R's device number, and the pages each has begun (page n is plot-<device>-<n>.png).
    ours <- integer()
    pages <- integer()
    options(device = function(...) {
      devices <<- devices + 1L
      grDevices::png(file.path(plot_dir, sprintf("plot-%03d-%%03d.png", devices)), width = caps$plot_width, height = caps$plot_height, res = 96)
      ours[as.character(grDevices::dev.cur())] <<- devices
      pages[devices] <<- 0L
    })
    # Called just before a page may begin: marks where its PNG belongs. Base graphics begin a page
    # only when par("page") says so (not for the next panel of par(mfrow)); grid's newpage always does.
    page_begins <- function(always) tryCatch({
      if (grDevices::dev.cur() == 1L) grDevices::dev.new()
      device <- ours[as.character(grDevices::dev.cur())]
      if (!is.na(device) && (always || isTRUE(graphics::par("page")))) {
        pages[device] <<- pages[device] + 1L
        flush_out()
        add(list(type = "plot", path = file.path(plot_dir, sprintf("plot-%03d-%03d.png", device, pages[device]))))
      }
    }, error = function(e) NULL)
    hooks <- list(before.plot.new = function() page_begins(FALSE), before.grid.newpage = function() page_begins(TRUE))
    for (name in names(hooks)) setHook(name, hooks[[name]])

    status <- "ok"
    outputs_before <- runpad$output_files()
    finish <- function() {
      for (name in names(hooks)) setHook(name, Filter(function(hook) !identical(hook, hooks[[name]]), getHook(name)), "replace")
      while (sink.number() > sinks) sink()
      flush_out()
      close(out)
      unlink(out_path)
      grDevices::graphics.off()
      for (path in sort(list.files(plot_dir, pattern = "[.]png$", full.names = TRUE))) add(list(type = "image", path = path))
      after <- runpad$output_files()
      for (name in names(after)[is.na(outputs_before[names(after)]) | outputs_before[names(after)] != after]) {
        add(list(type = "file", name = name, size = file.size(file.path("/output", name))))
      }
    }

    exprs <- tryCatch(parse(text = code, keep.source = FALSE), error = function(e) e)
    if (inherits(exprs, "error")) {
      finish()
      message <- sub("^<text>:", "line ", conditionMessage(exprs))
      return(list(status = "error", events = c(events, list(list(type = "error", ename = "ParseError", evalue = message, call = NA_character_, frames = character())))))
    }

    runpad_eval_user <- function(expr) withVisible(eval(expr, globalenv()))
    for (expr in exprs) {
      frames <- character()
      outcome <- tryCatch(
        withCallingHandlers(
          {
            value <- runpad_eval_user(expr)
            if (value$visible) {
              shown <- value$value
              if ((is.data.frame(shown) || (is.matrix(shown) && length(dim(shown)) == 2L)) && NCOL(shown) > 0L) {
                flush_out()
                add(runpad$table_event(shown, caps))
              } else {
                print(shown)
              }
            }
            "ok"
          },
          message = function(m) {
            flush_out()
            add(list(type = "stream", name = "stderr", text = conditionMessage(m)))
            invokeRestart("muffleMessage")
          },
          warning = function(w) {
            flush_out()
            add(list(type = "warning", message = conditionMessage(w), call = runpad$call_text(w)))
            invokeRestart("muffleWarning")
          },
          error = function(e) frames <<- runpad$user_frames(sys.calls())
        ),
        error = function(e) {
          flush_out()
          ename <- if (inherits(e, "packageNotFoundError")) "PackageNotFoundError" else "Error"
          add(list(type = "error", ename = ename, evalue = conditionMessage(e), call = runpad$call_text(e), frames = frames))
          "error"
        },
        interrupt = function(i) "interrupted"
      )
      if (outcome != "ok") {
        status <- outcome
        break
      }
    }
    finish()
    list(status = status, events = events)
  }

  env <- attach(NULL, name = "runpad")
  for (name in c("library", "require", "install.packages")) assign(name, runpad[[name]], envir = env)
  assign(".runpad", runpad, envir = env)
  invisible(NULL)
})
