import torch

MSA_FEATURE_NAMES = ["msa", "deletion_matrix", "msa_mask", "bert_mask", "true_msa"]


def sample_deleted_rows(num_seq, cfg, generator):
    block_len = int(num_seq * cfg["msa_fraction_per_block"])
    if block_len == 0:
        return None
    num_blocks = cfg["num_blocks"]
    if cfg["randomize_num_blocks"]:
        num_blocks = int(torch.randint(0, cfg["num_blocks"] + 1, (1,), generator=generator))
    starts = torch.randint(1, num_seq, (num_blocks,), generator=generator)
    rows = starts[:, None] + torch.arange(block_len)
    return torch.unique(rows.clamp(1, num_seq - 1).reshape(-1))


def block_delete_msa(protein, cfg, generator):
    num_seq = protein["msa"].shape[0]
    deleted = sample_deleted_rows(num_seq, cfg, generator)
    if deleted is None:
        return protein
    candidates, counts = torch.cat([torch.arange(num_seq), deleted]).unique(return_counts=True)
    keep = candidates[counts == 1]
    for k in MSA_FEATURE_NAMES:
        if k in protein:
            protein[k] = torch.index_select(protein[k], 0, keep)
    return protein


def make_example(num_seq, num_res, generator):
    msa = torch.randint(0, 22, (num_seq, num_res), generator=generator)
    return {
        "aatype": msa[0].clone(),
        "msa": msa,
        "deletion_matrix": torch.rand(num_seq, num_res, generator=generator),
        "msa_mask": torch.ones(num_seq, num_res),
    }


if __name__ == "__main__":
    gen = torch.Generator().manual_seed(0)
    cfg = {"msa_fraction_per_block": 0.3, "num_blocks": 3, "randomize_num_blocks": False}
    example = make_example(num_seq=20, num_res=12, generator=gen)
    original = {k: v.clone() for k, v in example.items()}

    out = block_delete_msa(example, cfg, torch.Generator().manual_seed(1))
    deleted = set(sample_deleted_rows(20, cfg, torch.Generator().manual_seed(1)).tolist())
    kept_rows = [r for r in range(20) if r not in deleted]
    assert kept_rows[0] == 0 and len(kept_rows) < 20
    for k in ("msa", "deletion_matrix", "msa_mask"):
        ref = torch.stack([original[k][r] for r in kept_rows])
        assert torch.equal(out[k], ref), k
    assert torch.equal(out["aatype"], original["aatype"])
    print("ok")
