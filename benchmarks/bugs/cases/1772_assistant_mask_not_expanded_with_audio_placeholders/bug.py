import torch


def render_chat(turns, cfg):
    ids, mask = [cfg["bos"]], [0]
    for role, content in turns:
        ids.append(cfg["role_tokens"][role])
        mask.append(0)
        for tok in content:
            ids.append(tok)
            mask.append(1 if role == "assistant" else 0)
        ids.append(cfg["eot"])
        mask.append(1 if role == "assistant" else 0)
    return ids, mask


def expand_placeholders(ids, mask, cfg):
    expanded = []
    for tok in ids:
        if tok == cfg["audio_token"]:
            expanded.extend([cfg["audio_pad"]] * cfg["audio_len"])
        else:
            expanded.append(tok)
    mask = mask + [0] * (len(expanded) - len(mask))
    return expanded, mask


def assistant_logprob(logprobs, token_ids, assistant_mask):
    positions = assistant_mask.nonzero(as_tuple=True)[0]
    rows = logprobs.index_select(0, positions)
    return rows.gather(1, token_ids[positions].unsqueeze(1)).squeeze(1).sum()


def build_request(cfg):
    user = [11, 12, cfg["audio_token"], 13]
    reply = [21, 22, 23, 24]
    return [("user", user), ("assistant", reply)]


if __name__ == "__main__":
    torch.manual_seed(0)
    cfg = {"bos": 1, "eot": 2, "role_tokens": {"user": 3, "assistant": 4},
           "audio_token": 5, "audio_pad": 6, "audio_len": 7, "vocab": 32}
    turns = build_request(cfg)
    ids, mask = render_chat(turns, cfg)
    ids, mask = expand_placeholders(ids, mask, cfg)
    token_ids = torch.tensor(ids)
    assistant_mask = torch.tensor(mask)
    logprobs = torch.randn(len(ids), cfg["vocab"]).log_softmax(-1)

    score = assistant_logprob(logprobs, token_ids, assistant_mask)

    ref, in_reply = 0.0, False
    for pos, tok in enumerate(ids):
        if tok == cfg["role_tokens"]["assistant"]:
            in_reply = True
            continue
        if in_reply:
            ref += logprobs[pos, tok].item()
            if tok == cfg["eot"]:
                in_reply = False
    print("assistant tokens scored:", token_ids[assistant_mask.bool()].tolist())
    print("assistant logprob:", round(score.item(), 4), "reference:", round(ref, 4))
