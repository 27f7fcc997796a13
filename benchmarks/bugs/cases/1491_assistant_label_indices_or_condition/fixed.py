import re

import torch

IGNORE_TOKEN_ID = -100


class ToyChatTokenizer:
    pattern = re.compile(r"<\|\w+\|>| ?\w+| ?[^\w\s]")

    def __init__(self, model_max_length=32):
        self.vocab = {"<pad>": 0}
        self.pad_token_id = 0
        self.model_max_length = model_max_length

    def apply_chat_template(self, conversation, tokenize=False):
        return "".join(f"<|{turn['role']}|>{turn['content'].strip()}<|end|>" for turn in conversation)

    def _id(self, piece):
        return self.vocab.setdefault(piece, len(self.vocab))

    def __call__(self, texts, max_length=None):
        max_length = max_length or self.model_max_length
        all_ids, all_offsets = [], []
        for text in texts:
            ids, offsets = [], []
            for m in self.pattern.finditer(text):
                ids.append(self._id(m.group()))
                offsets.append((m.start(), m.end()))
            ids, offsets = ids[:max_length], offsets[:max_length]
            pad = max_length - len(ids)
            all_ids.append(ids + [self.pad_token_id] * pad)
            all_offsets.append(offsets + [(0, 0)] * pad)
        return {"input_ids": torch.tensor(all_ids), "offset_mapping": all_offsets}


def preprocess(sources, tokenizer):
    prompts = [tokenizer.apply_chat_template(conv, tokenize=False) for conv in sources]
    encoding = tokenizer(prompts)
    input_ids = encoding["input_ids"]
    targets = torch.full_like(input_ids, IGNORE_TOKEN_ID)   # only assistant tokens are trained on

    for conv_index, (conversation, target, prompt) in enumerate(zip(sources, targets, prompts)):
        for turn in conversation:
            if turn["role"] != "assistant":
                continue
            content = turn["content"]
            start = prompt.index(content.strip())
            stop = start + len(content.strip())
            indices = []
            for tok_index, (tok_start, tok_stop) in enumerate(encoding["offset_mapping"][conv_index]):
                if tok_stop > start and tok_start < stop:   # token overlaps the reply span
                    indices.append(tok_index)
            target[indices] = input_ids[conv_index][indices]

    return dict(input_ids=input_ids, labels=targets, attention_mask=input_ids.ne(tokenizer.pad_token_id))


if __name__ == "__main__":
    tokenizer = ToyChatTokenizer(model_max_length=32)
    data = [
        [{"role": "user", "content": "What is two plus two?"},
         {"role": "assistant", "content": "It is four."}],
        [{"role": "user", "content": "Name a colour."},
         {"role": "assistant", "content": "Blue."},
         {"role": "user", "content": "Another one?"},
         {"role": "assistant", "content": "Green, maybe."}],
    ]
    batch = preprocess(data, tokenizer)
    # loop reference: label a token iff its characters lie inside an assistant reply
    for b, conv in enumerate(data):
        prompt = tokenizer.apply_chat_template(conv)
        spans = []
        for turn in conv:
            if turn["role"] == "assistant":
                s0 = prompt.index(turn["content"].strip())
                spans.append((s0, s0 + len(turn["content"].strip())))
        enc = tokenizer([prompt])
        for j, (a, z) in enumerate(enc["offset_mapping"][0]):
            inside = a < z and any(a >= s0 and z <= s1 for s0, s1 in spans)
            expected = int(enc["input_ids"][0, j]) if inside else IGNORE_TOKEN_ID
            assert int(batch["labels"][b, j]) == expected, (b, j)
    print("ok")
