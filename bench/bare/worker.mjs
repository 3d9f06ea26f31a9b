const version = new URL(self.location.href).searchParams.get('v');
const { loadPyodide } = await import(`/pyodide/${version ?? 'VERSION'}/pyodide.mjs`);
const pyodide = await loadPyodide({ indexURL: `/pyodide/${version ?? 'VERSION'}/` });
self.postMessage({ type: 'ready' });
self.onmessage = ({ data }) => {
  const result = String(pyodide.runPython(data.code));
  self.postMessage({ id: data.id, result });
};
