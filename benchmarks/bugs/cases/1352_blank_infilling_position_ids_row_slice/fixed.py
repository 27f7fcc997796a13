import torch

CONFIG = {
    "mask_token_id": 130000,
    "gmask_token_id": 130001,
    "bos_token_id": 130004,
    "pad_token_id": 3,
}


def find_mask_positions(input_ids, cfg):
    mask_positions, use_gmasks = [], []
    for seq in input_ids.tolist():
        use_gmask = cfg["gmask_token_id"] in seq
        token = cfg["gmask_token_id"] if use_gmask else cfg["mask_token_id"]
        mask_positions.append(seq.index(token))
        use_gmasks.append(use_gmask)
    return mask_positions, use_gmasks


def get_position_ids(input_ids, mask_positions, cfg, use_gmasks=None):
    batch_size, seq_length = input_ids.shape
    if use_gmasks is None:
        use_gmasks = [False] * batch_size
    context_lengths = [seq.tolist().index(cfg["bos_token_id"]) for seq in input_ids]
    position_ids = torch.arange(seq_length, dtype=torch.long, device=input_ids.device)
    position_ids = position_ids.unsqueeze(0).repeat(batch_size, 1)
    for i, context_length in enumerate(context_lengths):
        if not use_gmasks[i]:
            # tokens generated for a [MASK] blank all take the blank's position
            position_ids[i, context_length:] = mask_positions[i]
    return position_ids


def prepare_inputs(batch_tokens, cfg):
    width = max(len(t) for t in batch_tokens)
    rows = [[cfg["pad_token_id"]] * (width - len(t)) + t for t in batch_tokens]
    input_ids = torch.tensor(rows)
    mask_positions, use_gmasks = find_mask_positions(input_ids, cfg)
    return input_ids, get_position_ids(input_ids, mask_positions, CONFIG, use_gmasks)


if __name__ == "__main__":
    M, B = CONFIG["mask_token_id"], CONFIG["bos_token_id"]
    batch = [
        [501, 502, M, 503, 504, B, 601, 602],
        [701, M, 702, 703, 704, B, 801, 802],
    ]
    input_ids, position_ids = prepare_inputs(batch, CONFIG)
    for b, toks in enumerate(batch):
        ctx = toks.index(B)
        blank = toks.index(M)
        expected = [t if t < ctx else blank for t in range(len(toks))]
        assert position_ids[b].tolist() == expected, (position_ids[b].tolist(), expected)
    print("ok")
