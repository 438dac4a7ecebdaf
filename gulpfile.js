const path = require('path');
const { task, src, dest } = require('gulp');

// Icons are referenced as file:../icons/… (credentials) and file:../../icons/… (nodes),
// so they keep their folder under dist/.
task('build:icons', copyIcons);

function copyIcons() {
	return src(path.resolve('icons', '**', '*.{png,svg}'), { encoding: false }).pipe(
		dest(path.resolve('dist', 'icons')),
	);
}
