import { describe, expect, it } from 'vitest';
import { R_PROGRAM } from '@/lib/targets/r/notebook';
import { importedModules, relativePaths, requirementsTxt, usesOutputFolder } from './requirements';

describe('what an export needs outside Runpad', () => {
  it('makes quoted /data and /output paths relative, in Python, SQL and R, and nothing else', () => {
    expect(relativePaths('pd.read_csv("/data/sales.csv")')).toBe('pd.read_csv("./data/sales.csv")');
    expect(relativePaths("read_csv('/data/a b.tsv')")).toBe("read_csv('./data/a b.tsv')");
    expect(relativePaths('os.listdir("/data")')).toBe('os.listdir("./data")');
    expect(relativePaths('f"/data/{name}"; open("/output/x.png", "wb")')).toBe('f"./data/{name}"; open("./output/x.png", "wb")');
    expect(relativePaths('read.csv("/data/x.csv")')).toBe('read.csv("./data/x.csv")');
    // Not a path of Runpad's folders: left as written.
    expect(relativePaths('"/database/x"; "/home/data/x"; x = 10 / data / 2')).toBe('"/database/x"; "/home/data/x"; x = 10 / data / 2');
    expect(usesOutputFolder('open("./output/x.png", "wb")')).toBe(true);
    expect(usesOutputFolder('open("out.png", "wb")')).toBe(false);
  });

  it('finds the top-level modules imported, once each, skipping Runpad-only ones', () => {
    const code = 'import numpy as np, os.path\nfrom sklearn.linear_model import LinearRegression\n  import pandas\nfrom . import x\nimport micropip\nimport numpy';
    expect(importedModules(code)).toEqual(['numpy', 'os', 'sklearn', 'pandas']);
    expect(requirementsTxt({ requirements: [{ module: 'sklearn', why: '' }, { module: 'PIL', why: '' }], programs: [], output: false })).toBe('scikit-learn\npillow\n');
    expect(requirementsTxt({ requirements: [], programs: [{ program: R_PROGRAM, cells: 'the R cells' }], output: false })).toBe('');
  });
});
