import torch


def collate_tokens(values, pad_idx, left_pad):
    size = max(v.size(0) for v in values)
    res = values[0].new_full((len(values), size), pad_idx)
    for i, v in enumerate(values):
        if left_pad:
            res[i, size - len(v):] = v
        else:
            res[i, : len(v)] = v
    return res


def collate(samples, pad_idx, left_pad_source=True, left_pad_target=False):
    if len(samples) == 0:
        return {}
    ids = torch.LongTensor([s["id"] for s in samples])
    src_tokens = collate_tokens([s["source"] for s in samples], pad_idx, left_pad_source)
    src_lengths = torch.LongTensor([s["source"].ne(pad_idx).long().sum() for s in samples])
    src_lengths, sort_order = src_lengths.sort(descending=True)
    ids = ids.index_select(0, sort_order)
    src_tokens = src_tokens.index_select(0, sort_order)
    target = collate_tokens([s["target"] for s in samples], pad_idx, left_pad_target)
    target = target.index_select(0, sort_order)

    batch = {
        "id": ids,
        "nsentences": len(samples),
        "net_input": {"src_tokens": src_tokens, "src_lengths": src_lengths},
        "target": target,
    }
    if samples[0].get("constraints", None) is not None:
        lens = [s["constraints"].size(0) for s in samples]
        constraints = torch.zeros((len(samples), max(lens))).long()
        for i, s in enumerate(samples):
            constraints[i, : lens[i]] = s["constraints"]
        batch["constraints"] = constraints.index_select(0, sort_order)
    return batch


def make_samples(cfg, generator):
    samples = []
    for idx in range(cfg["batch_size"]):
        src_len = int(torch.randint(cfg["min_len"], cfg["max_len"], (1,), generator=generator))
        tgt_len = int(torch.randint(cfg["min_len"], cfg["max_len"], (1,), generator=generator))
        n_con = int(torch.randint(1, 4, (1,), generator=generator))
        source = torch.randint(cfg["nspecial"], cfg["vocab"], (src_len,), generator=generator)
        target = torch.randint(cfg["nspecial"], cfg["vocab"], (tgt_len,), generator=generator)
        # packed constraints: [count, phrase..., 0]; here one token per phrase tagged with the sentence id
        packed = torch.tensor([n_con] + [1000 * (idx + 1) + k for k in range(n_con)] + [0])
        samples.append({"id": idx, "source": source, "target": target, "constraints": packed})
    return samples


if __name__ == "__main__":
    cfg = {"batch_size": 6, "min_len": 3, "max_len": 15, "vocab": 100, "nspecial": 4, "pad": 1}
    samples = make_samples(cfg, torch.Generator().manual_seed(0))
    batch = collate(samples, pad_idx=cfg["pad"])
    for row, sid in enumerate(batch["id"].tolist()):
        sample = next(s for s in samples if s["id"] == sid)
        expected = sample["constraints"]
        got = batch["constraints"][row]
        assert torch.equal(got[: expected.numel()], expected)
        assert got[expected.numel():].eq(0).all()
        src = batch["net_input"]["src_tokens"][row]
        assert torch.equal(src[src.ne(cfg["pad"])], sample["source"])
    print("ok")
