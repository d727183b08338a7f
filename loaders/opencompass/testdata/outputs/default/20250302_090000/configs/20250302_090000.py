models = [dict(abbr='qwen2.5-1.5b-instruct-hf')]
