import re
lines = open('README.md').read().split('\n')
def section(title):
    # returns lines of "## title" up to the next "## "
    start = next(i for i, l in enumerate(lines) if l.startswith('## ') and l[3:].startswith(title))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith('## ')), len(lines))
    return lines[start:end]
ANCHORS = {
  '#the-mock': 'mock.md', '#building-at-scale': 'build.md#building-at-scale', '#watch-mode': 'build.md#watch-mode',
  '#change-report': 'change-report.md', '#verify-a-real-service': 'scenarios.md#verify-a-real-service',
  '#validating-proxy': 'scenarios.md#validating-proxy', '#scenarios': 'scenarios.md', '#the-clients': 'clients.md',
  '#several-versions-of-one-api': 'versions.md', '#house-lint-rules': 'lint.md#house-lint-rules', '#bad-input': 'build.md#bad-input',
  '#contract-coverage': 'scenarios.md#contract-coverage', '#using-the-package-from-another-project': 'clients.md#using-the-package-from-another-project',
  '#gaps-the-source-leaves-open': '../specs/README.md#gaps-the-source-leaves-open', '#dependencies-and-why-each-is-there': 'dependencies.md',
  '#toolchain-choices-and-the-traps-behind-them': 'build.md#toolchain-choices-and-the-traps-behind-them',
}
def relink(text, here):
    def fix(m):
        target = m.group(1)
        if target.startswith('#'):
            mapped = ANCHORS.get(target)
            if mapped is None: return m.group(0)
            if mapped.split('#')[0] == here: mapped = '#' + mapped.split('#')[1] if '#' in mapped else '#'
            return '](' + mapped + ')'
        if re.match(r'^(https?:|mailto:|\.\./|/)', target): return m.group(0)
        return '](../' + target + ')'
    return re.sub(r'\]\(([^)\s]+)\)', fix, text)
def guide(name, title, intro, parts):
    body = ['# ' + title, '', intro, '']
    for p in parts:
        sec = section(p)
        body += sec
    text = '\n'.join(body).rstrip() + '\n'
    open('docs/' + name, 'w').write(relink(text, name))
guide('clients.md', 'The clients', 'How to call the five operations with this package: the two client factories, their options and results, what they refuse, and how another project installs and imports the package. Every operation\'s page in the rendered docs (`npm run docs:serve`) also shows a TypeScript sample made from its document.', ['The clients', 'Using the package from another project'])
guide('versions.md', 'Versions', 'How the APIs are versioned, which version a client sends, how to pin another, and how to add a version.', ['Adding an operation or an api-version', 'Several versions of one API'])
guide('scenarios.md', 'Scenarios, verify and the validating proxy', 'Multi-step scenarios over the documents, running them against any server, a proxy that checks real traffic against the documents, and what the contract suite covers.', ['Scenarios', 'Verify a real service', 'Validating proxy', 'Contract coverage'])
guide('build.md', 'The build pipeline', 'What `npm run build` does and how it stays fast: the incremental build, watch mode, how bad input is reported, and the toolchain traps the pipeline works around.', ['Building at scale', 'Watch mode', 'Bad input', 'Toolchain choices'])
guide('change-report.md', 'The change report', 'What `npm run changes` says about a spec edit, the rules behind it, where it shows, and why the workspace has its own rules.', ['Change report'])
guide('lint.md', 'Lint rules', 'The house lint rules on top of Redocly and Spectral, why each exists, and the suppressions (each with its reason).', ['House lint rules'])
