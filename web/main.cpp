// Placeholder page module; replaced by the figure runtime.
int main() { return 0; }
