from dataclasses import dataclass, field

import torch


@dataclass
class Req:
    rid: str
    output_ids: list = field(default_factory=list)
    hidden_states: list = field(default_factory=list)


def verify_and_gather(draft_hidden, accept_lens, num_draft_tokens):
    # draft_hidden: [bs * num_draft_tokens, hidden], draft_hidden rows of request i are
    # i * num_draft_tokens ... i * num_draft_tokens + num_draft_tokens - 1
    accept_index = torch.cat([
        torch.arange(n) + i * num_draft_tokens for i, n in enumerate(accept_lens.tolist())
    ])
    # -> [sum(accept_lens), hidden], accepted rows in request order
    return draft_hidden.index_select(0, accept_index)


def process_batch_result_decode(reqs, hidden_states, accept_lens):
    # hidden_states: [sum(accept_lens), hidden]
    per_req = torch.split(hidden_states, accept_lens.tolist(), dim=0)
    for req, rows in zip(reqs, per_req):
        req.hidden_states.extend(rows.tolist())


if __name__ == "__main__":
    torch.manual_seed(0)
    bs, num_draft_tokens, hidden = 3, 4, 6
    reqs = [Req(f"r{i}") for i in range(bs)]
    draft_hidden = torch.randn(bs * num_draft_tokens, hidden)
    accept_lens = torch.tensor([3, 1, 2])
    hs = verify_and_gather(draft_hidden, accept_lens, num_draft_tokens)
    process_batch_result_decode(reqs, hs, accept_lens)
    for i, req in enumerate(reqs):
        n = accept_lens[i].item()
        assert len(req.hidden_states) == n
        for j in range(n):
            want = [draft_hidden[i * num_draft_tokens + j, k].item() for k in range(hidden)]
            assert req.hidden_states[j] == want, (i, j)
    print("ok")
