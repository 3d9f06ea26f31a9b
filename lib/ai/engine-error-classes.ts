/**
 * The classes the engines raise by themselves, whose names hold no value: Python's built-in
 * exceptions and those of the libraries it ships (DuckDB, pandas, NumPy, json, csv, re, sqlite3),
 * JavaScript's, R's conditions and the Graphviz target's own.
 */
export const ENGINE_ERROR_CLASSES: ReadonlySet<string> = new Set([
  'ArithmeticError', 'AssertionError', 'AttributeError', 'BaseException', 'BaseExceptionGroup', 'BlockingIOError', 'BrokenPipeError', 'BufferError', 'BytesWarning',
  'ChildProcessError', 'ConnectionAbortedError', 'ConnectionError', 'ConnectionRefusedError', 'ConnectionResetError', 'DeprecationWarning', 'EOFError', 'EncodingWarning',
  'EnvironmentError', 'Exception', 'ExceptionGroup', 'FileExistsError', 'FileNotFoundError', 'FloatingPointError', 'FutureWarning', 'GeneratorExit', 'IOError', 'ImportError',
  'ImportWarning', 'IndentationError', 'IndexError', 'InterruptedError', 'IsADirectoryError', 'KeyError', 'KeyboardInterrupt', 'LookupError', 'MemoryError',
  'ModuleNotFoundError', 'NameError', 'NotADirectoryError', 'NotImplementedError', 'OSError', 'OverflowError', 'PendingDeprecationWarning', 'PermissionError',
  'ProcessLookupError', 'RecursionError', 'ReferenceError', 'ResourceWarning', 'RuntimeError', 'RuntimeWarning', 'StopAsyncIteration', 'StopIteration', 'SyntaxError',
  'SyntaxWarning', 'SystemError', 'SystemExit', 'TabError', 'TimeoutError', 'TypeError', 'UnboundLocalError', 'UnicodeDecodeError', 'UnicodeEncodeError', 'UnicodeError',
  'UnicodeTranslateError', 'UnicodeWarning', 'UserWarning', 'ValueError', 'Warning', 'ZeroDivisionError', 'Error', 'error', 'warning',
  // DuckDB's Python exceptions
  'BinderException', 'CatalogException', 'ConnectionException', 'ConstraintException', 'ConversionException', 'DataError', 'DatabaseError', 'DependencyException',
  'FatalException', 'HTTPException', 'IOException', 'IntegrityError', 'InternalError', 'InternalException', 'InterruptException', 'InvalidInputException',
  'InvalidTypeException', 'NotImplementedException', 'NotSupportedError', 'OperationalError', 'OutOfMemoryException', 'OutOfRangeException', 'ParserException',
  'PermissionException', 'ProgrammingError', 'SequenceException', 'SerializationException', 'SyntaxException', 'TransactionException', 'TypeMismatchException',
  // pandas, NumPy, the standard library's modules
  'ParserError', 'EmptyDataError', 'ParserWarning', 'DtypeWarning', 'SettingWithCopyWarning', 'PerformanceWarning', 'IntCastingNaNError', 'MergeError',
  'InvalidIndexError', 'OutOfBoundsDatetime', 'OutOfBoundsTimedelta', 'UndefinedVariableError', 'IndexingError', 'SpecificationError', 'AbstractMethodError',
  'AxisError', 'LinAlgError', 'ComplexWarning', 'RankWarning', 'VisibleDeprecationWarning', 'JSONDecodeError', 'StatisticsError', 'BadZipFile', 'UnsupportedOperation',
  // JavaScript, R, Graphviz
  'RangeError', 'EvalError', 'URIError', 'AggregateError', 'DOMException', 'simpleError', 'simpleWarning', 'simpleCondition', 'simpleMessage',
  'rlang_error', 'rlang_warning', 'DotSyntaxError',
]);
